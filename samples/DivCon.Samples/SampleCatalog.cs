namespace DivCon.Samples;

/// <summary>
/// The five sample programs by name (§4.4). <see cref="Create"/> is cheap for every size, including
/// <see cref="ProblemSize.Thesis"/>: it allocates no input data. The data (up to 512 MB at thesis size) is made by
/// <see cref="IDivConSample.Initialize"/>, or else by the first run, and then reused by every run of that instance.
/// </summary>
public static class SampleCatalog
{
    /// <summary>The seed used when none is given.</summary>
    public const int DefaultSeed = 20131117;

    /// <summary>The catalogue names, lowercase: sumofsquares, montecarlopi, strassen, quicksort, mergesort.</summary>
    public static IReadOnlyList<string> Names { get; } =
    [
        SumOfSquares.ProgramName,
        MonteCarloPi.ProgramName,
        StrassenMultiply.ProgramName,
        QuickSort.ProgramName,
        MergeSort.ProgramName,
    ];

    /// <summary>Each catalogue name with one line saying what it is, for help text and reports.</summary>
    public static IReadOnlyList<(string Name, string Description)> Entries { get; } =
    [
        (SumOfSquares.ProgramName, "Sum of squares (map-reduce), high scalability (§4.4.1)."),
        (MonteCarloPi.ProgramName, "Monte Carlo π, high scalability (§4.4.2)."),
        (StrassenMultiply.ProgramName, "Strassen matrix multiplication, moderate scalability (§4.4.3)."),
        (QuickSort.ProgramName, "Quicksort, median-of-first-100 pivot, low scalability (§4.4.4)."),
        (MergeSort.ProgramName, "Mergesort, low scalability (§4.4.5)."),
    ];

    /// <summary>
    /// Creates the program <paramref name="name"/> (case-insensitive) for <paramref name="size"/> and
    /// <paramref name="seed"/>, applying <paramref name="settings"/> (granularity, execution mode, profiler) when given.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="name"/> is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="name"/> is not in <see cref="Names"/>, or <paramref name="settings"/> is invalid.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="size"/> is not defined.</exception>
    public static IDivConSample Create(string name, ProblemSize size, int seed = DefaultSeed, SampleSettings? settings = null)
    {
        ArgumentNullException.ThrowIfNull(name);
        if (!Enum.IsDefined(size))
        {
            throw new ArgumentOutOfRangeException(nameof(size), size, "Allowed: Small, Medium, Thesis.");
        }

        IReadOnlyList<string> problems = settings?.Validate() ?? [];
        if (problems.Count > 0)
        {
            throw new ArgumentException("Invalid sample settings: " + string.Join(" ", problems), nameof(settings));
        }

        IDivConSample program = name.ToLowerInvariant() switch
        {
            SumOfSquares.ProgramName => new SumOfSquares(size, seed),
            MonteCarloPi.ProgramName => new MonteCarloPi(size, seed),
            StrassenMultiply.ProgramName => new StrassenMultiply(size, seed),
            QuickSort.ProgramName => new QuickSort(size, seed),
            MergeSort.ProgramName => new MergeSort(size, seed),
            WorkInflation.WorkInflationBenchmark.ProgramName => new WorkInflation.WorkInflationBenchmark(size, seed),
            _ => throw new ArgumentException($"Unknown sample program '{name}'. Valid names: {string.Join(", ", Names)}.", nameof(name)),
        };
        settings?.ApplyTo(program);
        return program;
    }
}
