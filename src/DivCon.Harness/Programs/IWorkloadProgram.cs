namespace DivCon.Harness.Programs;

/// <summary>
/// A program the harness runs: one instance with its input made once and reused across runs (thesis §4.5.1). The
/// harness knows programs only through this contract; the sample programs are registered from outside
/// (<see cref="ProgramCatalog"/>).
/// </summary>
public interface IWorkloadProgram
{
    /// <summary>The program's name in the workload (unique within it; symmetric tests number the instances, <c>quicksort#2</c>).</summary>
    string Name { get; }

    /// <summary>Makes the input data if not made yet, so that no timed run pays for it. Not thread-safe.</summary>
    void Initialize();

    /// <summary>Starts one parallel run on <paramref name="scheduler"/>; returns promptly, the work runs on the scheduler.</summary>
    Task RunAsync(TaskScheduler scheduler, CancellationToken cancellationToken);

    /// <summary>One run of the sequential baseline on the calling thread (T_seq, for the program's scalability).</summary>
    void RunSequential();

    /// <summary>Throws <see cref="InvalidOperationException"/> unless the last parallel result is correct.</summary>
    void Verify();
}
