namespace DivCon.Partitioning;

/// <summary>Everything a partitioning policy may look at: plain data, no threads, no clocks.</summary>
/// <param name="Cores">Worker slots to divide (in the MultiProgramScheduler: one per pinned processor); positive.</param>
/// <param name="Programs">The programs, in a stable order; the index into this list is the program's index in the result.</param>
/// <param name="CacheGroups">
/// Optional: worker slots grouped by shared last-level cache (every slot in exactly one group), so placements can
/// follow cache boundaries; <see langword="null"/> when the topology is flat or unknown.
/// </param>
/// <param name="Previous">
/// The allocation in force, for placements that move as few workers as possible; <see langword="null"/> on the first
/// decision. Its program indices refer to <see cref="PreviousProgramIds"/>.
/// </param>
/// <param name="PreviousProgramIds">Program ids of <paramref name="Previous"/>'s indices (programs may have arrived or left since).</param>
public sealed record PartitioningInput(
    int Cores,
    IReadOnlyList<ProgramLoad> Programs,
    IReadOnlyList<IReadOnlyList<int>>? CacheGroups = null,
    Allocation? Previous = null,
    IReadOnlyList<int>? PreviousProgramIds = null);
