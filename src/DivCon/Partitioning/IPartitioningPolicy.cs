namespace DivCon.Partitioning;

/// <summary>
/// Decides how the worker slots are divided among programs. Implementations are pure: the result depends only on
/// the input, they keep no state that changes between calls, and they never touch a thread. The
/// MultiProgramScheduler validates the result (<see cref="Allocation.Validate"/>) and carries it out; it never
/// decides.
/// </summary>
public interface IPartitioningPolicy
{
    /// <summary>A short name for reports and the CLI (for example <c>scalability</c> or <c>task-availability</c>).</summary>
    string Name { get; }

    /// <summary>Divides <see cref="PartitioningInput.Cores"/> worker slots among <see cref="PartitioningInput.Programs"/>.</summary>
    Allocation Decide(PartitioningInput input);
}
