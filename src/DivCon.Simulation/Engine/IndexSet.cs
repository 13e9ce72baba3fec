namespace DivCon.Simulation.Engine;

/// <summary>
/// A set of the integers 0 … capacity − 1 with O(1) add, remove, membership and access by position: the members are
/// packed in an array and a removal moves the last member into the hole, so positions (which the simulator's random
/// picks index) depend only on the order of the adds and removes.
/// </summary>
internal sealed class IndexSet
{
    private readonly int[] _members;
    private readonly int[] _positionOf; // member → index in _members, or -1

    public IndexSet(int capacity)
    {
        _members = new int[capacity];
        _positionOf = new int[capacity];
        Array.Fill(_positionOf, -1);
    }

    public int Count { get; private set; }

    public int this[int position] => _members[position];

    public bool Contains(int value) => _positionOf[value] >= 0;

    public void Add(int value)
    {
        if (_positionOf[value] < 0)
        {
            _positionOf[value] = Count;
            _members[Count++] = value;
        }
    }

    public void Remove(int value)
    {
        int pos = _positionOf[value];
        if (pos >= 0)
        {
            int last = _members[--Count];
            _members[pos] = last;
            _positionOf[last] = pos;
            _positionOf[value] = -1;
        }
    }
}
