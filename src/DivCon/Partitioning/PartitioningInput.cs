namespace DivCon.Partitioning;

/// <summary>Everything a partitioning policy may look at: plain data, no threads, no clocks.</summary>
/// <param name="Cores">Worker slots to divide (in the MultiProgramScheduler: one per pinned processor); positive.</param>
/// <param name="Programs">The programs, in a stable order (arrival order in the MultiProgramScheduler); ids distinct.</param>
/// <param name="CacheGroups">
/// Optional: worker slots grouped by shared last-level cache (every slot in exactly one group), so placements can
/// follow cache boundaries; <see langword="null"/> when the topology is flat or unknown.
/// </param>
/// <param name="Previous">
/// The allocation in force (keyed by program id: programs may have arrived or left since), so that rotation and
/// placement move as few workers as possible; <see langword="null"/> on the first decision.
/// </param>
public sealed record PartitioningInput(
    int Cores,
    IReadOnlyList<ProgramLoad> Programs,
    IReadOnlyList<IReadOnlyList<int>>? CacheGroups = null,
    Allocation? Previous = null);
