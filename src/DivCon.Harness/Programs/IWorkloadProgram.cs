namespace DivCon.Harness.Programs;

/// <summary>
/// A program in a cyclic or symmetric workload: one instance with its input already made (data reused across runs,
/// thesis §4.5.1).
/// </summary>
public interface IWorkloadProgram
{
    /// <summary>The program's name in the workload (unique within it; symmetric tests number the instances, <c>quicksort#2</c>).</summary>
    string Name { get; }

    /// <summary>Starts one parallel run on <paramref name="scheduler"/>; returns promptly, the work runs on the scheduler.</summary>
    Task RunAsync(TaskScheduler scheduler, CancellationToken cancellationToken);

    /// <summary>One run of the sequential baseline on the calling thread (T_seq, for the program's scalability).</summary>
    void RunSequential();

    /// <summary>Throws <see cref="InvalidOperationException"/> unless the last parallel result is correct.</summary>
    void Verify();
}
