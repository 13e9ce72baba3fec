using DivCon.Harness.Programs;
using DivCon.Harness.Schemes;

namespace DivCon.Cli.Commands;

/// <summary>
/// Which programs and schemes the <c>cyclic</c> and <c>symmetric</c> commands can name. The one place where a build
/// wires the types other projects provide: a scheme is added with <c>registry.With(BuiltInSchemes.Shared(...))</c>, a
/// sample program with <c>catalog.With(ProgramEntry.Available(...))</c>.
/// </summary>
internal static class HarnessWiring
{
    public static SchemeRegistry Schemes() => BuiltInSchemes.CreateRegistry();

    public static ProgramCatalog Programs() => ProgramCatalog.CreateDefault();

    /// <summary>The scheme that measures C^SP by default: a standalone work-stealing scheduler when wired, else TPL default.</summary>
    public static string DefaultSpScheme(SchemeRegistry registry) =>
        registry.Find(BuiltInSchemes.OversubscribedFreeName) is { IsAvailable: true } ? BuiltInSchemes.OversubscribedFreeName : BuiltInSchemes.TplDefaultName;
}
