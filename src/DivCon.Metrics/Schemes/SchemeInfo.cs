using DivCon.Partitioning;

namespace DivCon.Metrics.Schemes;

/// <summary>One multiprogramming scheme as data: what the CLI, the reports, the harness and the simulator know of it.</summary>
/// <param name="Name">The CLI name, lowercase with dashes (for example <c>oversubscribed-free</c>).</param>
/// <param name="Description">One sentence: which schedulers, how many workers, pinned or not, shared or separate.</param>
/// <param name="Arrangement">How the programs get their threads.</param>
/// <param name="Simulated">Whether <c>divcon simulate</c> models it (the thread pool's injection heuristics are not modelled).</param>
/// <param name="CreatePolicy">For a partitioned scheme, a new instance of its policy; null otherwise.</param>
/// <param name="IdleLending">For a partitioned scheme, whether an idle worker may serve another program until the next repartitioning.</param>
public record SchemeInfo(
    string Name,
    string Description,
    SchemeArrangement Arrangement,
    bool Simulated,
    Func<IPartitioningPolicy>? CreatePolicy = null,
    bool IdleLending = false)
{
    /// <summary>For a partitioned scheme, whether it also repartitions when a program's demand changes (MultiProgramSchedulerOptions.RepartitionOnDemand).</summary>
    public bool RepartitionOnDemand { get; init; }

    /// <summary>Whether it needs each program's scalability (the partitioned schemes divide the cores by it).</summary>
    public bool RequiresScalability => Arrangement == SchemeArrangement.Partitioned;

    /// <inheritdoc/>
    public sealed override string ToString() => Name;
}
