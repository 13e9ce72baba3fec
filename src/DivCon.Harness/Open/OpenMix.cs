using DivCon.Harness.Programs;

namespace DivCon.Harness.Open;

/// <summary>
/// The default mix of <c>divcon open</c>: many short latency-sensitive requests (a <c>Parallel.For</c> of about 4 ms of
/// one core's work), some reports (an async method alternating a 2 ms wait with a <c>Parallel.ForEach</c> chunk, about
/// 40 ms of work), and a few long throughput jobs (a divide-and-conquer program of the catalogue).
/// </summary>
public static class OpenMix
{
    /// <summary>The role of short jobs whose latency matters.</summary>
    public const string Latency = "latency";

    /// <summary>The role of long jobs whose throughput matters.</summary>
    public const string Throughput = "throughput";

    /// <summary>The class names of the default mix.</summary>
    public const string Request = "request", Report = "report", Batch = "batch";

    /// <summary>The default weights: 85 % requests, 10 % reports, 5 % batch jobs.</summary>
    public static IReadOnlyList<(string Class, double Weight)> DefaultWeights { get; } = [(Request, 0.85), (Report, 0.10), (Batch, 0.05)];

    /// <summary>The default classes with <paramref name="weights"/> (class name → weight; a class not named keeps its default weight).</summary>
    /// <param name="batch">The divide-and-conquer program of the batch class.</param>
    /// <param name="size">Its problem size.</param>
    /// <param name="seed">Seeds the programs' inputs.</param>
    /// <param name="weights">Weights to override.</param>
    /// <param name="loops">How requests and reports write their loops: <see cref="OpenLoops.Parallel"/> (.NET's
    /// <c>Parallel.For</c> / <c>ForEach</c>) or <see cref="OpenLoops.Chunked"/> (DivCon's chunked loops, awaited).</param>
    public static IReadOnlyList<OpenJobClass> Create(ProgramEntry batch, WorkloadSize size, int seed, IReadOnlyDictionary<string, double>? weights = null, string loops = OpenLoops.Parallel)
    {
        ArgumentNullException.ThrowIfNull(batch);
        bool chunked = OpenLoops.IsChunked(loops);
        string forLoop = chunked ? "ChunkedLoops.ForAsync" : "Parallel.For";
        string forEachLoop = chunked ? "ChunkedLoops.ForAsync" : "Parallel.ForEach";
        double Weight(string name) => weights is not null && weights.TryGetValue(name, out double w) ? w : DefaultWeights.First(d => d.Class == name).Weight;
        return
        [
            new(Request, Latency, $"{forLoop} over 32 items of 62,500 spin steps (about 4 ms of one core)", Weight(Request),
                () => new ParallelForJob(Request, items: 32, iterationsPerItem: 62_500, seed, chunked), Reentrant: true),
            new(Report, Latency, $"async: 4 × (await a 2 ms delay, then {forEachLoop} over 16 items of 300,000 spin steps) (about 40 ms of one core)", Weight(Report),
                () => new AsyncChunksJob(Report, chunks: 4, itemsPerChunk: 16, iterationsPerItem: 300_000, TimeSpan.FromMilliseconds(2), seed, chunked), Reentrant: true),
            new(Batch, Throughput, $"{batch.Name} ({size.ToString().ToLowerInvariant()}): {batch.Description}", Weight(Batch),
                () => batch.Create(size, seed), Reentrant: false),
        ];
    }
}
