using DivCon.Scheduling;

namespace DivCon.Harness.Schemes;

/// <summary>A scheme's request for one standalone work-stealing scheduler.</summary>
/// <param name="Label">For thread names and reports (the program's name, or <c>shared</c>).</param>
/// <param name="Workers">Worker threads (one per processor of the scheme).</param>
/// <param name="PinTo">Processors to pin one worker each to, in order; null for free (unpinned) workers.</param>
/// <param name="Budget">The experiment's CPU budget (<see cref="SchemeContext.Budget"/>); null: the scheduler detects it.</param>
public sealed record SchedulerRequest(string Label, int Workers, IReadOnlyList<int>? PinTo, CpuBudget? Budget = null);
