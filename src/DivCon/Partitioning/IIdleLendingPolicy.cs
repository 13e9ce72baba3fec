namespace DivCon.Partitioning;

/// <summary>
/// A policy that, besides deciding the allocation at each tick, lets idle workers be lent between ticks. The
/// mechanism checks for this interface and, when present, follows the protocol described on <see cref="IdleLending"/>.
/// </summary>
public interface IIdleLendingPolicy : IPartitioningPolicy
{
    /// <summary>The program an idle worker of <paramref name="lender"/> should serve until that program runs dry or the next tick, or -1 for none.</summary>
    /// <remarks>
    /// Called by the scheduler's workers between tasks, by several at once: it must be thread-safe, and should not
    /// allocate or block (O(programs), like <see cref="IdleLending.ChooseBorrower"/>).
    /// </remarks>
    /// <param name="scalabilities">Per program, its scalability.</param>
    /// <param name="servingWorkers">Per program, the workers serving it now.</param>
    /// <param name="availableTasks">Per program, its queued tasks now.</param>
    /// <param name="lender">Index of the idle worker's own program, or -1.</param>
    int ChooseBorrower(ReadOnlySpan<double> scalabilities, ReadOnlySpan<int> servingWorkers, ReadOnlySpan<int> availableTasks, int lender);
}
