using DivCon.Harness.Plots;
using DivCon.Metrics.Schemes;

namespace DivCon.Harness.Schemes;

/// <summary>
/// Every scheme of the <see cref="SchemeCatalog"/> wired to the real schedulers: <see cref="WorkStealingSchedulers"/>
/// (the standalone <c>WorkStealingTaskScheduler</c>) for the oversubscribed and shared schemes, the thread pool for
/// tpl-default, and <see cref="MultiProgramPool"/> (the <c>MultiProgramScheduler</c> with the scheme's policy) for the
/// partitioned ones. <see cref="Wire"/> takes the scheduler and pool factories, so tests can build the same
/// arrangements over recording fakes.
/// </summary>
public static class BuiltInSchemes
{
    /// <summary>Every scheme of the catalogue, in report order, over the real schedulers.</summary>
    /// <param name="timelines">
    /// Where the MultiProgramScheduler schemes leave their allocation timelines when a phase ends (for the allocation
    /// plots and Chrome traces beside the results), or null.
    /// </param>
    public static SchemeRegistry CreateRegistry(SchemeTimelineCollector? timelines = null) =>
        new(SchemeCatalog.All.Select(info => Wire(info, WorkStealingSchedulers.Create, context => new MultiProgramPool(
            context.Processors, info.CreatePolicy!(), SchemeCatalog.RepartitionInterval, info.IdleLending, timelines, info.Name, info.RepartitionOnDemand, context.Budget))));

    /// <summary><paramref name="info"/> built over <paramref name="workStealing"/> schedulers or <paramref name="createPool"/> pools.</summary>
    public static SchemeDescriptor Wire(SchemeInfo info, Func<SchedulerRequest, SchedulerHandle> workStealing, Func<SchemeContext, IMultiprogramPool> createPool)
    {
        ArgumentNullException.ThrowIfNull(info);
        ArgumentNullException.ThrowIfNull(workStealing);
        ArgumentNullException.ThrowIfNull(createPool);
        return new SchemeDescriptor(info, info.Arrangement switch
        {
            SchemeArrangement.OversubscribedFree => context => new SeparateSchedulersArrangement(context, pinned: false, workStealing),
            SchemeArrangement.OversubscribedPinned => context => new SeparateSchedulersArrangement(context, pinned: true, workStealing),
            SchemeArrangement.Shared => context => new SharedSchedulerArrangement(context, workStealing),
            SchemeArrangement.ThreadPool => context => new TplDefaultArrangement(context),
            SchemeArrangement.Partitioned => context => new PartitionedArrangement(context, createPool),
            _ => throw new ArgumentOutOfRangeException(nameof(info), info.Arrangement, "Unknown arrangement."),
        });
    }
}
