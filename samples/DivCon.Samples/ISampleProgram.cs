namespace DivCon.Samples;

/// <summary>
/// A sample program as the harness sees it (the thesis's "testable" programs, §4.3, §4.5.1): input data is made
/// once by the factory and reused across runs; each run computes a fresh result, which <see cref="Verify"/> checks
/// against the sequential baseline.
/// </summary>
public interface ISampleProgram
{
    /// <summary>The catalogue name, lowercase (for example <c>quicksort</c>).</summary>
    string Name { get; }

    /// <summary>The size the input was made for.</summary>
    ProblemSize Size { get; }

    /// <summary>
    /// One parallel run: every task of the D&amp;C recursion is created on <paramref name="scheduler"/>. The returned
    /// task completes when the result is ready; it faults if a muscle throws and is canceled by <paramref name="cancellationToken"/>.
    /// </summary>
    Task RunParallelAsync(TaskScheduler scheduler, CancellationToken cancellationToken = default);

    /// <summary>One run of the sequential baseline on the calling thread (the T_s of the factored speedups).</summary>
    void RunSequential();

    /// <summary>Throws <see cref="InvalidOperationException"/> unless the last parallel result equals the baseline's.</summary>
    void Verify();
}
