using DivCon.Metrics.Throttling;

namespace DivCon.Harness.Cyclic;

/// <summary>The cgroup throttling during one scheme's multiprogram phase (from its start until its last run stopped).</summary>
/// <param name="Scheme">The scheme.</param>
/// <param name="Repetition">The repetition, from 1.</param>
/// <param name="Phase">What the counters counted over the phase; null when the reading failed.</param>
public sealed record PhaseThrottling(string Scheme, int Repetition, ThrottlingSample? Phase);
