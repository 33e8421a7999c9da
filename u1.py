import sys,uuid
prev=None;n=0;bad=0
for line in sys.stdin:
    n+=1; t=uuid.UUID(line.strip()).time
    if prev is not None and t<=prev:
        bad+=1
        if bad<4: print("nonmono",n,prev,t,line.strip())
    prev=t
print("uuid1 n",n,"bad",bad)
