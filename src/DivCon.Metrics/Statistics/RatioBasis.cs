namespace DivCon.Metrics.Statistics;

/// <summary>What the values behind a <see cref="RatioEstimate"/> are.</summary>
public enum RatioBasis
{
    /// <summary>Per-invocation means of independent process invocations (or simulated seeds), paired: the interval to read.</summary>
    Invocations,

    /// <summary>The runs of one invocation: run-to-run noise only, narrower than what another invocation would show.</summary>
    Runs,
}
