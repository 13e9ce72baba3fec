using DivCon.Harness.Programs;
using DivCon.Harness.Schemes;

namespace DivCon.Cli.Commands;

/// <summary>
/// Which programs and schemes the <c>cyclic</c> and <c>symmetric</c> commands can name: the one place where the CLI
/// picks them. Every scheme is wired to the real schedulers in the harness library
/// (<see cref="BuiltInSchemes.CreateRegistry"/>: <see cref="WorkStealingSchedulers"/> for oversubscribed-free,
/// oversubscribed-pinned and shared; <see cref="MultiProgramPool"/> with one partitioning policy each for
/// static-partitioned, dynamic-partitioned, equal-shares, hill-climbing and idle-lending; the .NET thread pool for
/// tpl-default). A build that adds a scheme does it here with <c>registry.With(BuiltInSchemes.Partitioned(...))</c>, a
/// sample program with <c>catalog.With(ProgramEntry.Available(...))</c>.
/// </summary>
internal static class HarnessWiring
{
    public static SchemeRegistry Schemes(Harness.Plots.SchemeTimelineCollector? timelines = null) => BuiltInSchemes.CreateRegistry(timelines);

    public static ProgramCatalog Programs() => ProgramCatalog.CreateDefault();

    /// <summary>
    /// The scheme that measures C^SP by default: one standalone work-stealing scheduler with a worker per core
    /// (oversubscribed-free with a single program is exactly that), else TPL default.
    /// </summary>
    public static string DefaultSpScheme(SchemeRegistry registry) =>
        registry.Find(BuiltInSchemes.OversubscribedFreeName) is { IsAvailable: true } ? BuiltInSchemes.OversubscribedFreeName : BuiltInSchemes.TplDefaultName;
}
