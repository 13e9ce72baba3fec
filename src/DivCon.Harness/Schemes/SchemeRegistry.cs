namespace DivCon.Harness.Schemes;

/// <summary>
/// The schemes a run can name, in report order (<see cref="BuiltInSchemes.CreateRegistry"/> wires every scheme of the
/// catalogue). Immutable: <see cref="With"/> returns a registry with one scheme replaced or added.
/// </summary>
public sealed class SchemeRegistry
{
    private readonly SchemeDescriptor[] _schemes;

    /// <summary>Creates a registry; names must be unique (case-insensitive).</summary>
    public SchemeRegistry(IEnumerable<SchemeDescriptor> schemes)
    {
        ArgumentNullException.ThrowIfNull(schemes);
        _schemes = schemes.ToArray();
        var duplicate = _schemes.GroupBy(s => s.Name, StringComparer.OrdinalIgnoreCase).FirstOrDefault(g => g.Count() > 1);
        if (duplicate is not null)
        {
            throw new ArgumentException($"Scheme name '{duplicate.Key}' appears twice.", nameof(schemes));
        }
    }

    /// <summary>Every scheme, in report order: what <c>--schemes all</c> selects.</summary>
    public IReadOnlyList<SchemeDescriptor> All => _schemes;

    /// <summary>Looks a scheme up by name (case-insensitive).</summary>
    public SchemeDescriptor? Find(string name) =>
        _schemes.FirstOrDefault(s => string.Equals(s.Name, name, StringComparison.OrdinalIgnoreCase));

    /// <summary>A registry with <paramref name="scheme"/> replacing the one of the same name (kept in place) or appended.</summary>
    public SchemeRegistry With(SchemeDescriptor scheme)
    {
        ArgumentNullException.ThrowIfNull(scheme);
        var list = _schemes.ToList();
        int i = list.FindIndex(s => string.Equals(s.Name, scheme.Name, StringComparison.OrdinalIgnoreCase));
        if (i >= 0)
        {
            list[i] = scheme;
        }
        else
        {
            list.Add(scheme);
        }

        return new SchemeRegistry(list);
    }
}
