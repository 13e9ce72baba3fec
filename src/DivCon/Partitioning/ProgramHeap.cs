using System.Diagnostics;

namespace DivCon.Partitioning;

/// <summary>
/// A binary min-heap of program indices ordered by <see cref="ProgramPriority.Compare"/> over a key array the caller
/// owns. The caller changes a key only for the program it has just popped, then pushes it back, so the heap never
/// holds a stale key. Building is O(m); push and pop are O(log m).
/// </summary>
internal sealed class ProgramHeap
{
    private readonly double[] _keys;
    private readonly double[] _scalabilities;
    private readonly int[] _items;
    private int _count;

    public ProgramHeap(double[] keys, double[] scalabilities, IEnumerable<int> programs)
    {
        _keys = keys;
        _scalabilities = scalabilities;
        _items = new int[keys.Length];
        foreach (int p in programs)
        {
            _items[_count++] = p;
        }

        for (int i = (_count / 2) - 1; i >= 0; i--)
        {
            SiftDown(i);
        }
    }

    public int Count => _count;

    public int Pop()
    {
        Debug.Assert(_count > 0, "Pop on an empty heap.");
        int top = _items[0];
        _items[0] = _items[--_count];
        if (_count > 0)
        {
            SiftDown(0);
        }

        return top;
    }

    /// <summary>The program served first (the heap is not empty).</summary>
    public int Peek()
    {
        Debug.Assert(_count > 0, "Peek on an empty heap.");
        return _items[0];
    }

    /// <summary>
    /// The key of the program served first has grown (it was given a core): restores the order in one sift, where a
    /// <see cref="Pop"/> and a <see cref="Push"/> of the same program would take two. The order is total (ties end at
    /// the index), so the programs come out in the same sequence either way.
    /// </summary>
    public void TopKeyIncreased()
    {
        Debug.Assert(_count > 0, "TopKeyIncreased on an empty heap.");
        SiftDown(0);
    }

    /// <summary>Adds <paramref name="program"/> (not in the heap).</summary>
    public void Push(int program)
    {
        Debug.Assert(_count < _items.Length, "A program is in the heap at most once.");
        int i = _count++;
        _items[i] = program;
        while (i > 0)
        {
            int parent = (i - 1) / 2;
            if (Less(_items[i], _items[parent]))
            {
                (_items[i], _items[parent]) = (_items[parent], _items[i]);
                i = parent;
            }
            else
            {
                break;
            }
        }
    }

    private void SiftDown(int i)
    {
        while (true)
        {
            int left = (2 * i) + 1;
            if (left >= _count)
            {
                return;
            }

            int best = left;
            int right = left + 1;
            if (right < _count && Less(_items[right], _items[left]))
            {
                best = right;
            }

            if (!Less(_items[best], _items[i]))
            {
                return;
            }

            (_items[i], _items[best]) = (_items[best], _items[i]);
            i = best;
        }
    }

    private bool Less(int a, int b) =>
        ProgramPriority.Compare(_keys[a], _scalabilities[a], a, _keys[b], _scalabilities[b], b) < 0;
}
