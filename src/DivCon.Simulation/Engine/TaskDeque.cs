namespace DivCon.Simulation.Engine;

/// <summary>
/// A worker's deque: the owner pushes and pops at the bottom (LIFO), thieves take from the top (FIFO), so the
/// largest D&amp;C subproblems are stolen first. Single-threaded (the simulator), so a linked list suffices.
/// </summary>
internal sealed class TaskDeque
{
    private readonly LinkedList<SimTask> _tasks = new(); // First: the top (oldest); Last: the bottom (newest)

    public int Count => _tasks.Count;

    public void LocalPush(SimTask task) => _tasks.AddLast(task);

    public SimTask? LocalPop() => Take(_tasks.Last);

    public SimTask? TrySteal() => Take(_tasks.First);

    private SimTask? Take(LinkedListNode<SimTask>? node)
    {
        if (node is not null)
        {
            _tasks.Remove(node);
        }

        return node?.Value;
    }
}
