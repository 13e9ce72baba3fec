namespace DivCon.Harness.Schemes;

/// <summary>
/// The schemes a run can name, in report order (<see cref="BuiltInSchemes.CreateRegistry"/> wires every scheme of the
/// catalogue). Immutable.
/// </summary>
public sealed class SchemeRegistry
{
    private readonly NamedList<SchemeDescriptor> _schemes;

    /// <summary>Creates a registry; names must be unique (case-insensitive).</summary>
    public SchemeRegistry(IEnumerable<SchemeDescriptor> schemes) => _schemes = new(schemes, s => s.Name, "Scheme", nameof(schemes));

    /// <summary>Every scheme, in report order: what <c>--schemes all</c> selects.</summary>
    public IReadOnlyList<SchemeDescriptor> All => _schemes.All;

    /// <summary>Looks a scheme up by name (case-insensitive).</summary>
    public SchemeDescriptor? Find(string name) => _schemes.Find(name);
}
