internal import CMPFR

/// MPFR's per-thread caches: the constants it has computed (log 2, π, Euler's γ) and the Bernoulli
/// numbers of its log-gamma, each kept at the largest precision a thread has asked for.
///
/// A thread's exit does not free them. Code that runs MPFR on short-lived threads of its own must
/// release them before each thread ends: the server, which answers each question on a thread of its
/// own, otherwise grew by about 1.7 KB a question (held by the load benchmark's soak,
/// Tools/bench/load_bench.py). Long-lived threads (the CLI's, a pool's) keep them: they are what makes
/// the next question at the same precision cheap.
public enum ThreadCaches {
    /// Frees the calling thread's MPFR caches. Safe to call at any time; the next MPFR call that needs
    /// a constant computes it again.
    public static func release() {
        mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE)
    }
}
