using DivCon.Harness.Programs;
using DivCon.Harness.Schemes;

namespace DivCon.Cli.Commands;

/// <summary>
/// Which programs and schemes the <c>cyclic</c> and <c>symmetric</c> commands can name. The one place where a build
/// wires the types other projects provide: a scheme is added with <c>registry.With(BuiltInSchemes.Shared(...))</c>, a
/// sample program with <c>catalog.With(ProgramEntry.Available(...))</c>.
/// <para>
/// To wire the rest (names of the other projects' members are as planned; adjust to what they are):
/// <code>
/// // Standalone work-stealing scheduler: a request → a handle (scheduler, its statistics, its lifetime).
/// static SchedulerHandle WorkStealing(SchedulerRequest r)
/// {
///     var s = r.PinTo is null ? new WorkStealingTaskScheduler(r.Workers) : new WorkStealingTaskScheduler(r.PinTo);
///     return new SchedulerHandle(s, () =&gt; new SchedulerStats(nameof(WorkStealingTaskScheduler), s.Id, s.WorkerCount,
///         r.PinTo is not null, r.PinTo, IdleSeconds: …, TasksExecuted: …, Steals: …), s);
/// }
/// registry = registry.With(BuiltInSchemes.OversubscribedFree(WorkStealing))
///                    .With(BuiltInSchemes.OversubscribedPinned(WorkStealing))
///                    .With(BuiltInSchemes.Shared(WorkStealing));
///
/// // MultiProgramScheduler: a small IMultiprogramPool adapter (AddProgram → its per-program TaskScheduler,
/// // StatsFor → workers held, idle, core-time), then one line per policy.
/// registry = registry.With(BuiltInSchemes.StaticPartitioned(c =&gt; new PoolAdapter(c.Processors, new ScalabilityPolicy(), repartition: false)))
///                    .With(BuiltInSchemes.DynamicPartitioned(c =&gt; new PoolAdapter(c.Processors, new TaskAvailabilityPolicy(), TimeSpan.FromMilliseconds(100))))
///                    .With(BuiltInSchemes.Partitioned("hill-climbing", "…", "§8.2", c =&gt; …));
/// </code>
/// </para>
/// </summary>
internal static class HarnessWiring
{
    public static SchemeRegistry Schemes() => BuiltInSchemes.CreateRegistry();

    public static ProgramCatalog Programs() => ProgramCatalog.CreateDefault();

    /// <summary>The scheme that measures C^SP by default: a standalone work-stealing scheduler when wired, else TPL default.</summary>
    public static string DefaultSpScheme(SchemeRegistry registry) =>
        registry.Find(BuiltInSchemes.OversubscribedFreeName) is { IsAvailable: true } ? BuiltInSchemes.OversubscribedFreeName : BuiltInSchemes.TplDefaultName;
}
