namespace DivCon.Simulation.Engine;

/// <summary>
/// A worker's deque: the owner pushes and pops at the bottom (LIFO), thieves take from the top (FIFO), so the
/// largest D&amp;C subproblems are stolen first. Single-threaded (the simulator), so a ring buffer suffices.
/// </summary>
internal sealed class TaskDeque
{
    private SimTask?[] _items = new SimTask?[16];
    private int _head; // index of the top (oldest)

    public int Count { get; private set; }

    public void LocalPush(SimTask task)
    {
        if (Count == _items.Length)
        {
            var bigger = new SimTask?[_items.Length * 2];
            for (int i = 0; i < Count; i++)
            {
                bigger[i] = _items[(_head + i) % _items.Length];
            }

            _items = bigger;
            _head = 0;
        }

        _items[(_head + Count) % _items.Length] = task;
        Count++;
    }

    public SimTask? LocalPop()
    {
        if (Count == 0)
        {
            return null;
        }

        int i = (_head + Count - 1) % _items.Length;
        SimTask? task = _items[i];
        _items[i] = null;
        Count--;
        return task;
    }

    public SimTask? TrySteal()
    {
        if (Count == 0)
        {
            return null;
        }

        SimTask? task = _items[_head];
        _items[_head] = null;
        _head = (_head + 1) % _items.Length;
        Count--;
        return task;
    }
}
