namespace DivCon.Partitioning;

/// <summary>
/// Task-availability shares at each decision (<see cref="TaskAvailabilityPolicy"/>) plus idle lending between
/// decisions with <see cref="IdleLending.ChooseBorrower"/>: a worker whose program has no task serves the program
/// with the lowest score that has one, until its own program has a task again (recall, at its next task boundary),
/// that program runs dry or the next decision (<see cref="IdleLending"/>).
/// </summary>
public sealed class IdleLendingPolicy : IIdleLendingPolicy
{
    /// <summary>The name used in reports and on the command line.</summary>
    public const string PolicyName = "idle-lending";

    private static readonly TaskAvailabilityPolicy s_tick = new();

    /// <inheritdoc/>
    public string Name => PolicyName;

    /// <inheritdoc/>
    public RotationScope Rotation => RotationScope.ProgramsWithTasks;

    /// <inheritdoc/>
    public Shares Decide(PartitioningInput input) => s_tick.Decide(input);

    /// <inheritdoc/>
    public int ChooseBorrower(LendingInput input) => IdleLending.ChooseBorrower(input);
}
