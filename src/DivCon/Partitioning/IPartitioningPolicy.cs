namespace DivCon.Partitioning;

/// <summary>
/// Decides how many cores each program holds (oneTBB's <c>update_allotment</c>, DivCon's thesis §5.3): a pure
/// function from a <see cref="PartitioningInput"/> to <see cref="Shares"/>, one per program id with its reasons. It
/// keeps no state that changes between calls, never touches a thread, and checks its own postconditions before
/// returning (<see cref="Shares.Problems"/> at least: one share per program, Σ = cores; each policy adds its own).
/// Rotation among more programs than cores and placement on worker slots are the <see cref="Repartitioner"/>'s, the
/// same for every policy; the MultiProgramScheduler and the simulator apply what the repartitioner returns.
/// </summary>
public interface IPartitioningPolicy
{
    /// <summary>A short name for reports and the CLI (for example <c>scalability</c> or <c>task-availability</c>).</summary>
    string Name { get; }

    /// <summary>
    /// Which programs the repartitioner rotates single cores among when there are fewer cores than programs that want
    /// one (default: every program).
    /// </summary>
    RotationScope Rotation => RotationScope.AllPrograms;

    /// <summary>Divides <see cref="PartitioningInput.Cores"/> cores among <see cref="PartitioningInput.Programs"/>.</summary>
    /// <exception cref="InvalidOperationException">The policy cannot decide for this input (a fixed allocation that does not fit, a broken postcondition).</exception>
    Shares Decide(PartitioningInput input);
}
