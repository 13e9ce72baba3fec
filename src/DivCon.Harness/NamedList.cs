namespace DivCon.Harness;

/// <summary>
/// Items with unique names (case-insensitive), in order: what the program catalogue and the scheme registry hold.
/// Immutable: <see cref="With"/> returns a list with one item replaced (kept in place) or appended.
/// </summary>
/// <typeparam name="T">The items' type.</typeparam>
public class NamedList<T>
{
    private readonly T[] _items;
    private readonly Func<T, string> _name;

    /// <summary>The items, checked for a name given twice.</summary>
    /// <param name="items">The items.</param>
    /// <param name="name">An item's name.</param>
    /// <param name="kind">What an item is ("Program"), for the message about a name given twice.</param>
    /// <param name="parameter">The caller's parameter, for that message.</param>
    /// <exception cref="ArgumentException">Two items have the same name.</exception>
    public NamedList(IEnumerable<T> items, Func<T, string> name, string kind, string parameter)
    {
        ArgumentNullException.ThrowIfNull(items, parameter);
        _items = items.ToArray();
        _name = name;
        var duplicate = _items.GroupBy(name, StringComparer.OrdinalIgnoreCase).FirstOrDefault(g => g.Count() > 1);
        if (duplicate is not null)
        {
            throw new ArgumentException($"{kind} name '{duplicate.Key}' appears twice.", parameter);
        }
    }

    /// <summary>Every item, in order.</summary>
    public IReadOnlyList<T> All => _items;

    /// <summary>The item named <paramref name="name"/> (case-insensitive), or null.</summary>
    public T? Find(string name) => _items.FirstOrDefault(x => string.Equals(_name(x), name, StringComparison.OrdinalIgnoreCase));

    /// <summary>The items with <paramref name="item"/> in place of the one of its name, or appended.</summary>
    public IEnumerable<T> With(T item)
    {
        int i = Array.FindIndex(_items, x => string.Equals(_name(x), _name(item), StringComparison.OrdinalIgnoreCase));
        return i >= 0 ? _items.Select((x, j) => j == i ? item : x) : _items.Append(item);
    }
}
