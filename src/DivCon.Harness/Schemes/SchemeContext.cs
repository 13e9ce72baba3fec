using DivCon.Metrics.Schemes;
using DivCon.Scheduling;

namespace DivCon.Harness.Schemes;

/// <summary>What a scheme needs to build its schedulers for one multiprogram phase.</summary>
/// <param name="Programs">
/// The programs, in phase order (index = program index): each one's name in the workload, and its speedup alone on all the
/// processors (T_seq / C^SP), measured before the phase when any selected scheme needs it
/// (<see cref="SchemeInfo.RequiresScalability"/>), else null.
/// </param>
/// <param name="Processors">The processors the schemes may use (the CPU budget's selection, or the first <c>--cores</c> of the affinity mask).</param>
/// <param name="Budget">
/// The experiment's CPU budget, the one reading every scheduler of the experiment is sized against (a scheduler given
/// more processors than it warns in its statistics); null: each scheduler detects it.
/// </param>
/// <param name="OnlineScalability">Partitioned schemes add their programs without a scalability (estimated online by the scheduler).</param>
public sealed record SchemeContext(IReadOnlyList<(string Name, double? Scalability)> Programs, IReadOnlyList<int> Processors, CpuBudget? Budget = null, bool OnlineScalability = false);
