namespace DivCon.Harness.Schemes;

/// <summary>
/// The schemes a run can name, in report order (<see cref="BuiltInSchemes.CreateRegistry"/> wires every scheme of the
/// catalogue); <see cref="NamedList{T}.All"/> is what <c>--schemes all</c> selects. Immutable.
/// </summary>
/// <param name="schemes">The schemes; names must be unique (case-insensitive).</param>
public sealed class SchemeRegistry(IEnumerable<SchemeDescriptor> schemes) : NamedList<SchemeDescriptor>(schemes, s => s.Name, "Scheme", nameof(schemes));
