namespace DivCon.Partitioning;

/// <summary>
/// Equal shares as each program's guarantee, and every idle core lent at once to the program that gains most
/// throughput from it (<see cref="IdleLending.ChooseByThroughput"/>), until its own program has a queued task again
/// (recall at its next task boundary). The MultiProgramScheduler's default (docs/simulation.md: with the simulator's
/// costs it is the one DivCon scheme that matches or beats oversubscription and the shared scheduler on ANTT and STP
/// at 64 and 256 cores).
/// </summary>
/// <remarks>
/// <para>Why these two parts: the guarantee is what protects a program from its co-runners (a short program restarts
/// on its own cores instead of queuing behind the others' work, which is what makes the shared scheduler's MNTT
/// large); lending is what makes the scheme work-conserving (no core idles while a program has a queued task, which
/// is what static partitions lose to the shared scheduler in STP). Idle cores are, by definition, beyond every
/// program's guarantee, so they go where they add most system throughput. Recall bounds what a loan costs the lender:
/// the borrower's task in hand.</para>
/// <para>Shares and postconditions are <see cref="EqualSharesPolicy"/>'s; with more programs than cores the
/// repartitioner rotates the cores among all programs.</para>
/// </remarks>
public sealed class WorkConservingPolicy : IIdleLendingPolicy
{
    /// <summary>The name used in reports and on the command line.</summary>
    public const string PolicyName = "work-conserving";

    private static readonly EqualSharesPolicy s_shares = new();

    /// <inheritdoc/>
    public string Name => PolicyName;

    /// <inheritdoc/>
    public Shares Decide(PartitioningInput input) => s_shares.Decide(input);

    /// <inheritdoc/>
    public int ChooseBorrower(LendingInput input) => IdleLending.ChooseByThroughput(input);
}
