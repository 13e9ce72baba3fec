namespace DivCon.Simulation.Engine;

/// <summary>What a task does when it runs.</summary>
internal enum TaskKind
{
    /// <summary>The run's sequential part, before the root (Amdahl's serial fraction).</summary>
    Sequential,

    /// <summary>A subproblem: split it (internal node) or execute it (leaf).</summary>
    Node,

    /// <summary>Merge a node's children's results; queued by the last child to finish.</summary>
    Merge,
}

/// <summary>A node of one run's D&amp;C tree. Children are created when its split task finishes.</summary>
internal sealed class TreeNode
{
    public required ProgramRun Run { get; init; }

    public TreeNode? Parent { get; init; }

    public required int Level { get; init; }

    /// <summary>Fraction of the run's work under this node (1 at the root).</summary>
    public required double Fraction { get; init; }

    /// <summary>Seed of this node's random stream (its children's split fractions): a pure function of its path, so
    /// every scheme simulates the same trees (common random numbers).</summary>
    public required ulong Seed { get; init; }

    public required bool IsLeaf { get; init; }

    /// <summary>Children not finished yet; the one that brings it to zero queues the merge.</summary>
    public int PendingChildren { get; set; }
}

/// <summary>A queued or running task.</summary>
internal sealed class SimTask
{
    public required TaskKind Kind { get; init; }

    public required ProgramRun Run { get; init; }

    public TreeNode? Node { get; init; }

    /// <summary>Time the task runs for once started, ns.</summary>
    public required long Cost { get; init; }
}

/// <summary>One run of a program: from its start until its root's merge (or its only leaf) finishes.</summary>
internal sealed class ProgramRun
{
    public required SimProgram Program { get; init; }

    public required int Index { get; init; }

    public required ulong Seed { get; init; }

    public required long StartNs { get; init; }

    /// <summary>Σ cost of the tasks created so far (all of them once the run has finished).</summary>
    public long CreatedCostNs { get; set; }

    public long TasksCreated { get; set; }
}
