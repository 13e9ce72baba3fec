namespace DivCon.Partitioning;

/// <summary>
/// Task-availability repartitioning at each tick (<see cref="TaskAvailabilityPolicy"/>) plus idle lending between
/// ticks (<see cref="IdleLending.ChooseBorrower"/>): a worker whose program has no task serves the program with the
/// lowest score that has one, until the next tick or until that program has no task (then it goes back). With fewer cores than programs with tasks, the ticks rotate the
/// cores exactly as <see cref="TaskAvailabilityPolicy.Decide"/> does (<see cref="Rotation"/>).
/// </summary>
public sealed class IdleLendingPolicy : IIdleLendingPolicy
{
    /// <summary>The name used in reports and on the command line.</summary>
    public const string PolicyName = "idle-lending";

    private static readonly TaskAvailabilityPolicy s_tick = new();

    /// <inheritdoc/>
    public string Name => PolicyName;

    /// <inheritdoc/>
    public Allocation Decide(PartitioningInput input) => s_tick.Decide(input);

    /// <inheritdoc/>
    public int ChooseBorrower(ReadOnlySpan<double> scalabilities, ReadOnlySpan<int> servingWorkers, ReadOnlySpan<int> availableTasks, int lender) =>
        IdleLending.ChooseBorrower(scalabilities, servingWorkers, availableTasks, lender);
}
