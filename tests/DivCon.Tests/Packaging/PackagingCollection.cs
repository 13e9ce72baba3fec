namespace DivCon.Tests.Packaging;

/// <summary>
/// The tests that start `dotnet pack` / `dotnet build` share one collection, so they run one after the other (each
/// build uses every core it can) while the rest of the suite runs beside them.
/// </summary>
[CollectionDefinition(Name)]
public sealed class PackagingCollection
{
    public const string Name = "Packaging (child builds)";
}
