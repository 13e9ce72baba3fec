namespace DivCon.Harness.Open;

/// <summary>
/// The result check of a job whose every parallel run must compute the sequential value: counts runs and wrong runs
/// (thread-safe: runs may overlap) and answers the job's <c>Verify</c>.
/// </summary>
internal sealed class CheckedRuns(Func<ulong> sequential)
{
    private readonly Lazy<ulong> _expected = new(sequential);
    private long _wrongRuns;
    private long _runs;

    /// <summary>Computes the expected value now (outside any timed run).</summary>
    public void Prepare() => _ = _expected.Value;

    /// <summary>Records one parallel run's result.</summary>
    public void Record(ulong result)
    {
        Interlocked.Increment(ref _runs);
        if (result != _expected.Value)
        {
            Interlocked.Increment(ref _wrongRuns);
        }
    }

    /// <summary>Throws unless at least one parallel run completed and none differed from the sequential value.</summary>
    public void Verify(string name)
    {
        if (Interlocked.Read(ref _runs) == 0)
        {
            throw new InvalidOperationException($"'{name}' has not completed a parallel run yet.");
        }

        if (Interlocked.Read(ref _wrongRuns) > 0)
        {
            throw new InvalidOperationException($"'{name}': {_wrongRuns} of {_runs} parallel runs differ from the sequential result {_expected.Value}.");
        }
    }
}
