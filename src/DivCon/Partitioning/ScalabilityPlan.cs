namespace DivCon.Partitioning;

/// <summary>
/// The scalability-based base allocation with its intermediate steps (thesis §5.3.2), as
/// <c>divcon plan</c> prints it.
/// </summary>
/// <param name="Cores">The cores divided.</param>
/// <param name="Shares">share_i = cores · s_i / Σs, the proportional (real-valued) share of each program.</param>
/// <param name="Floors">⌊share_i⌋ when there are at least as many cores as programs; all zero otherwise.</param>
/// <param name="RemainderReceivers">
/// Programs that received one of the cores left after the floors, in ascending index order: the largest remainders
/// (ties: higher scalability, then lower index). With fewer cores than programs: the programs that got a core.
/// </param>
/// <param name="MinimumTransfers">
/// Cores moved so that every program holds at least one (only when cores ≥ programs): each from the program with
/// the highest score a_i / share_i among those holding two or more, to a program left with none.
/// </param>
/// <param name="Base">The base allocation: per program, its number of cores; sums to <paramref name="Cores"/> when there is a program.</param>
public sealed record ScalabilityPlan(
    int Cores,
    IReadOnlyList<double> Shares,
    IReadOnlyList<int> Floors,
    IReadOnlyList<int> RemainderReceivers,
    IReadOnlyList<CoreTransfer> MinimumTransfers,
    IReadOnlyList<int> Base);
