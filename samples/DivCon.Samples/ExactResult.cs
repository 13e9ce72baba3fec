namespace DivCon.Samples;

// The last parallel result and the sequential baseline of a program whose result is one exact 64-bit number (sum of
// squares, Monte Carlo π's count, the work-inflation checksum). A parallel run calls StartParallel before it starts
// and SetParallel when it has succeeded, so a failed run leaves nothing to verify; Verify needs a successful parallel
// run, runs the baseline if it has not run yet, requires the two numbers to be equal, and then forgets the parallel
// result, so that verifying again needs a new successful run.
internal sealed class ExactResult
{
    private long _parallel;
    private bool _hasParallel;
    private long _baseline;
    private bool _hasBaseline;

    // The value of the last successful parallel run (0 before any).
    public long Parallel => _parallel;

    public void StartParallel() => _hasParallel = false;

    public void SetParallel(long value)
    {
        _parallel = value;
        _hasParallel = true;
    }

    public void SetBaseline(long value)
    {
        _baseline = value;
        _hasBaseline = true;
    }

    // describeMismatch(parallel, baseline) completes SampleRun.Mismatch's message.
    public void Verify(string name, Action runSequential, Func<long, long, string> describeMismatch)
    {
        SampleRun.EnsureParallelResult(_hasParallel, name);
        if (!_hasBaseline)
        {
            runSequential();
        }

        if (_parallel != _baseline)
        {
            throw SampleRun.Mismatch(name, describeMismatch(_parallel, _baseline));
        }

        _hasParallel = false;
    }
}
