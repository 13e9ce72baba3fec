using DivCon.Skeletons;

namespace DivCon.Samples;

/// <summary>
/// When a sample's split or merge runs its own work in parallel with <see cref="DivConContext.ForAsync"/> (thesis
/// §8.2: Strassen's split and merge, mergesort's merge and, when turned on, quicksort's level-1 partition): only where the recursion itself leaves workers idle, that is, at levels with fewer nodes than the scheduler has
/// workers (<see cref="Pays"/>): on 2 workers, level 1 only; Strassen's level 2 (7 nodes) from 8 workers on, the
/// sorts' level 2 (2 nodes) from 3. Below that, every worker already has a node of its own and nested tasks would
/// only add overhead.
/// </summary>
public static class NestedParallelism
{
    /// <summary>
    /// Whether a split or merge at <paramref name="context"/>'s level should be parallel: the scheduler has at least 2
    /// workers and the level has fewer nodes (<paramref name="branchingFactor"/>^(level − 1)) than workers.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="branchingFactor"/> is less than 1.</exception>
    public static bool Pays(DivConContext context, int branchingFactor)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(branchingFactor);
        int workers = Workers(context);
        if (workers < 2)
        {
            return false;
        }

        long nodes = 1;
        for (int level = 1; level < context.Level && nodes < workers; level++)
        {
            nodes *= branchingFactor;
        }

        return nodes < workers;
    }

    /// <summary>How many blocks to cut <paramref name="length"/> items into for a nested loop: 4 per worker, at most one per item.</summary>
    public static int Blocks(DivConContext context, int length) => Math.Max(1, Math.Min(length, 4 * Workers(context)));

    /// <summary>The first item of block <paramref name="block"/> of <paramref name="blocks"/> over [0, <paramref name="length"/>) (block = blocks gives length).</summary>
    public static int BlockStart(int block, int blocks, int length) => (int)((long)length * block / blocks);

    // The workers the run's scheduler can use at once, at most the processors of this process (TaskScheduler.Default
    // reports int.MaxValue).
    private static int Workers(DivConContext context) => Math.Min(context.Scheduler.MaximumConcurrencyLevel, Environment.ProcessorCount);
}
