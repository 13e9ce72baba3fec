namespace DivCon.Harness.Cyclic;

/// <summary>
/// What the cgroup's throttling counters (<c>cpu.stat</c>) counted during a cyclic or symmetric test, read just before
/// and after every timed run alone and every multiprogram phase: time the kernel held the process back under a CPU
/// quota, which the run times include and which is not the programs' doing (docs/cpu-budget.md).
/// </summary>
/// <param name="Alone">Per program, measure and repetition, one sample per timed run.</param>
/// <param name="Phases">Per scheme and repetition, one sample for the phase.</param>
public sealed record CyclicThrottling(IReadOnlyList<AloneThrottling> Alone, IReadOnlyList<PhaseThrottling> Phases)
{
    /// <summary>True when any run or phase was throttled.</summary>
    public bool WasThrottled => Alone.Any(a => a.Runs.Any(r => r is { WasThrottled: true })) || Phases.Any(p => p.Phase is { WasThrottled: true });
}
