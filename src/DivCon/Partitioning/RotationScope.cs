namespace DivCon.Partitioning;

/// <summary>
/// Which programs the <see cref="Repartitioner"/> rotates the cores among when there are fewer cores than programs
/// that want one (<see cref="IPartitioningPolicy.Rotation"/>).
/// </summary>
public enum RotationScope
{
    /// <summary>Every program (policies that ignore available tasks).</summary>
    AllPrograms = 0,

    /// <summary>The programs with available tasks (policies that read them: a program with none wants no core).</summary>
    ProgramsWithTasks,

    /// <summary>No program: the policy's shares stand as they are (a fixed allocation is a statement, not a suggestion).</summary>
    None,
}
