// Header-only (CounterFloor.h); a C target needs one source file.
#include "CounterFloor.h"
