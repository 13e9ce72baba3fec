namespace DivCon.Partitioning;

/// <summary>
/// A policy that, besides deciding the shares, lets idle workers be lent between decisions. The mechanism checks
/// for this interface and, when present, follows the protocol described on <see cref="IdleLending"/>: an idle worker
/// is lent at once to the program this rule chooses, and goes home at its next task boundary once its own program
/// has a queued task (recall), when the borrower runs dry, or at the next allocation.
/// </summary>
public interface IIdleLendingPolicy : IPartitioningPolicy
{
    /// <summary>The program index an idle worker of <see cref="LendingInput.Lender"/> should serve, or -1 for none.</summary>
    /// <remarks>
    /// Called by the scheduler's workers between tasks, by several at once: it must be thread-safe, and should not
    /// allocate or block (O(programs), like <see cref="IdleLending.ChooseBorrower"/>). The simulator calls it the same
    /// way on its virtual workers.
    /// </remarks>
    int ChooseBorrower(LendingInput input);
}
