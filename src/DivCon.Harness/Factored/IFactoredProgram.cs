namespace DivCon.Harness.Factored;

/// <summary>
/// A program whose factored speedups can be measured: a sequential baseline (T_s), a parallel run on a given
/// scheduler (T_1, T_P) with a fixed granularity for every worker count, and optionally the sequential elision
/// (the parallel code with granularity = problem size, T_elision). Its input is made by <see cref="Prepare"/>, before
/// any timed run.
/// </summary>
public interface IFactoredProgram
{
    /// <summary>The program's name.</summary>
    string Name { get; }

    /// <summary>Whether <see cref="RunElisionAsync"/> is available.</summary>
    bool HasElision { get; }

    /// <summary>Makes the input data (not timed).</summary>
    void Prepare();

    /// <summary>One run of the sequential baseline on the calling thread.</summary>
    void RunSequential();

    /// <summary>One parallel run with every task on <paramref name="scheduler"/>.</summary>
    Task RunParallelAsync(TaskScheduler scheduler, CancellationToken cancellationToken);

    /// <summary>One run of the sequential elision on <paramref name="scheduler"/>.</summary>
    /// <exception cref="NotSupportedException"><see cref="HasElision"/> is false.</exception>
    Task RunElisionAsync(TaskScheduler scheduler, CancellationToken cancellationToken);

    /// <summary>Throws <see cref="InvalidOperationException"/> unless the last parallel or elision result is correct.</summary>
    void Verify();
}
