using DivCon.Metrics.Throttling;

namespace DivCon.Harness.Cyclic;

/// <summary>The cgroup throttling during each timed run of one program alone (C^SP, T_seq, T_s or T_1).</summary>
/// <param name="Program">The program's name.</param>
/// <param name="Measure">
/// What the runs measured: <c>csp</c> (the C^SP runs), <c>tseq</c> (the scalability's sequential run), <c>ts</c> and
/// <c>t1</c> (the isolated times of the multiprogram factored speedups).
/// </param>
/// <param name="Repetition">The repetition, from 1.</param>
/// <param name="Runs">One sample per timed run, in order (a null sample: that reading failed).</param>
public sealed record AloneThrottling(string Program, string Measure, int Repetition, IReadOnlyList<ThrottlingSample?> Runs)
{
    /// <summary>The summary of <see cref="Runs"/>.</summary>
    public ThrottlingSummary? Summary => ThrottlingSummary.Of(Runs);
}
