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
/// <param name="Run">The run it belongs to.</param>
/// <param name="Parent">Its parent, or null at the root.</param>
/// <param name="Level">Its recursion level, 1 at the root.</param>
/// <param name="Fraction">Fraction of the run's work under this node (1 at the root).</param>
/// <param name="Seed">
/// Seed of this node's random stream (its children's split fractions): a pure function of its path, so every scheme
/// simulates the same trees (common random numbers).
/// </param>
/// <param name="IsLeaf">Whether it executes rather than splits.</param>
internal sealed record TreeNode(ProgramRun Run, TreeNode? Parent, int Level, double Fraction, ulong Seed, bool IsLeaf)
{
    /// <summary>Children not finished yet; the one that brings it to zero queues the merge.</summary>
    public int PendingChildren { get; set; }
}

/// <summary>A queued or running task.</summary>
/// <param name="Kind">What it does.</param>
/// <param name="Run">The run it belongs to.</param>
/// <param name="Node">Its tree node (null for the sequential part).</param>
/// <param name="Cost">Time the task runs for once started, ns.</param>
internal sealed record SimTask(TaskKind Kind, ProgramRun Run, TreeNode? Node, long Cost);

/// <summary>One run of a program: from its start until its root's merge (or its only leaf) finishes.</summary>
/// <param name="Program">The program.</param>
/// <param name="Seed">The seed of its tree.</param>
/// <param name="StartNs">When it started.</param>
internal sealed record ProgramRun(SimProgram Program, ulong Seed, long StartNs)
{
    /// <summary>Σ cost of the tasks created so far (all of them once the run has finished).</summary>
    public long CreatedCostNs { get; set; }
}
