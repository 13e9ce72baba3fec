namespace DivCon.Benchmarks.Scheduling;

/// <summary>
/// A binary tree of near-empty tasks (fib-like): each inner node spawns two children; a leaf completes its parent;
/// the last child to finish completes the node (one atomic decrement on the parent, nearly always uncontended).
/// No task blocks, so both schedulers run exactly the same work: 2^(depth+1) - 1 tasks.
/// </summary>
public static class SpawnTree
{
    private static readonly Action<object?> s_node = RunNode;

    public static long Size(int depth) => (2L << depth) - 1;

    /// <summary>Runs the tree on <paramref name="scheduler"/> and returns the number of leaves that ran.</summary>
    public static long Run(TaskScheduler scheduler, int depth)
    {
        var root = new Node(null, depth, scheduler, new TaskCompletionSource<long>());
        Spawn(root);
        return root.Done!.Task.GetAwaiter().GetResult();
    }

    private static void Spawn(Node node)
        => Task.Factory.StartNew(s_node, node, CancellationToken.None, TaskCreationOptions.None, node.Scheduler);

    private static void RunNode(object? state)
    {
        var node = (Node)state!;
        if (node.Depth == 0)
        {
            Complete(node.Parent, node, 1);
            return;
        }

        node.Pending = 2;
        Spawn(new Node(node, node.Depth - 1, node.Scheduler, null));
        Spawn(new Node(node, node.Depth - 1, node.Scheduler, null));
    }

    private static void Complete(Node? parent, Node child, long leaves)
    {
        while (parent is not null)
        {
            Interlocked.Add(ref parent.Leaves, leaves);
            if (Interlocked.Decrement(ref parent.Pending) != 0)
            {
                return;
            }

            child = parent;
            leaves = Volatile.Read(ref parent.Leaves);
            parent = parent.Parent;
        }

        child.Done!.SetResult(leaves);
    }

    private sealed class Node(Node? parent, int depth, TaskScheduler scheduler, TaskCompletionSource<long>? done)
    {
        public readonly Node? Parent = parent;
        public readonly int Depth = depth;
        public readonly TaskScheduler Scheduler = scheduler;
        public readonly TaskCompletionSource<long>? Done = done;
        public int Pending;
        public long Leaves;
    }
}
