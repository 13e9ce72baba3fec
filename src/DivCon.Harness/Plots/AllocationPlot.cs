using System.Diagnostics;
using System.Text;
using DivCon.Multiprogramming;
using DivCon.Reporting.Plotting;

namespace DivCon.Harness.Plots;

/// <summary>
/// Cores held by each program over time, from a MultiProgramScheduler's <see cref="AllocationTimeline"/>: replays the
/// moves per worker (a worker belongs to the program of its last move; before its first move to nobody), and emits a
/// step for a program whenever its count changes. Time is seconds since the scheduler started; the dashed line is the
/// worker count. Programs are the layers, by id. If the timeline's ring dropped its oldest moves, the plot starts from
/// the first kept move (the workers' previous programs are taken from it).
/// </summary>
public static class AllocationPlot
{
    /// <summary>
    /// The per-program core counts as step changes (seconds, layer, cores held from then on), with the layer names (index
    /// = layer); <c>Partial</c> is true when moves were dropped and no final assignment was given: workers not moved since
    /// are missing.
    /// </summary>
    private static (string[] Names, List<(double Time, int Layer, int Value)> Changes, double EndSeconds, bool Partial) Changes(SchemeTimeline timeline)
    {
        IReadOnlyList<AllocationMove> moves = timeline.Timeline.GetMoves();
        int[] ids = timeline.ProgramNames.Keys
            .Concat(moves.SelectMany(m => new[] { m.FromProgramId, m.ToProgramId }).OfType<int>())
            .Concat((timeline.FinalWorkerPrograms ?? []).OfType<int>())
            .Distinct().Order().ToArray();
        Dictionary<int, int> layer = ids.Index().ToDictionary(p => p.Item, p => p.Index);
        string[] names = ids.Select(id => timeline.ProgramNames.TryGetValue(id, out string? n) ? $"{n} ({id})" : $"program {id}").ToArray();
        long origin = timeline.Timeline.OriginTimestamp;
        double Seconds(long ts) => (ts - origin) / (double)Stopwatch.Frequency;

        List<(double Time, int Layer, int Value)> changes = [.. ids.Select((_, i) => (0.0, i, 0))];
        var owner = new Dictionary<int, int?>();
        var held = new int[ids.Length];
        double end = Math.Max(0, Seconds(timeline.EndTimestamp));

        // When the ring dropped the oldest moves, the plot starts at the first kept move, from the assignment just
        // before it: each moved worker's first kept move says whom it served before; the others keep their final
        // assignment when it is known (then it is exact), otherwise they are missing (the title says so).
        bool partial = false;
        if (timeline.Timeline.Dropped > 0 && moves.Count > 0)
        {
            double since = Math.Max(0, Seconds(moves[0].Timestamp));
            var before = timeline.FinalWorkerPrograms?.Index().ToDictionary(p => p.Index, p => p.Item) ?? new Dictionary<int, int?>();
            partial = timeline.FinalWorkerPrograms is null;
            foreach (AllocationMove first in moves.GroupBy(m => m.Worker).Select(g => g.First()))
            {
                before[first.Worker] = first.FromProgramId;
            }

            foreach (var (worker, program) in before)
            {
                owner[worker] = program;
                if (program is int f)
                {
                    held[layer[f]]++;
                }
            }

            changes.AddRange(held.Select((h, l) => (since, l, h)));
        }

        foreach (AllocationMove move in moves)
        {
            double t = Math.Max(0, Seconds(move.Timestamp));
            end = Math.Max(end, t);
            int? previous = owner.TryGetValue(move.Worker, out int? p) ? p : null;
            if (previous == move.ToProgramId)
            {
                continue;
            }

            owner[move.Worker] = move.ToProgramId;
            if (previous is int from)
            {
                held[layer[from]]--;
                changes.Add((t, layer[from], held[layer[from]]));
            }

            if (move.ToProgramId is int to)
            {
                held[layer[to]]++;
                changes.Add((t, layer[to], held[layer[to]]));
            }
        }

        // The plot needs a positive span even when everything happened at time 0.
        if (!(end > 0))
        {
            end = 1e-3;
        }

        return (names, changes, end, partial);
    }

    /// <summary>The stacked step plot of <paramref name="timeline"/>, or null when it names no program.</summary>
    public static StackedStepPlot? Create(SchemeTimeline timeline)
    {
        ArgumentNullException.ThrowIfNull(timeline);
        var (names, changes, end, partial) = Changes(timeline);
        if (names.Length == 0)
        {
            return null;
        }

        var plot = Steps(partial ? $"Cores held by each program: {timeline.Scheme} (oldest {timeline.Timeline.Dropped} moves dropped; unmoved workers missing)"
            : $"Cores held by each program: {timeline.Scheme}", names, changes, end);
        plot.YAxis.IntegerTicks = true;
        plot.AddHorizontalLine(timeline.Workers, $"{timeline.Workers} workers");
        return plot;
    }

    /// <summary>
    /// The plot of <paramref name="changes"/> (at least one, none after <paramref name="end"/>): each layer holds 0 until
    /// its first change and each value until its next; the time grid is every distinct change time plus
    /// <paramref name="end"/>. Changes at the same time for the same layer: the last one listed wins.
    /// </summary>
    internal static StackedStepPlot Steps(string title, string[] names, IReadOnlyList<(double Time, int Layer, int Value)> changes, double end)
    {
        // Stable sort by time keeps "last listed wins" for simultaneous changes of one layer.
        var ordered = changes.OrderBy(c => c.Time).ToArray();
        double[] times = [.. ordered.Select(c => c.Time).Append(end).Distinct()];
        double[][] values = [.. names.Select(_ => new double[times.Length - 1])];
        var current = new double[names.Length];
        int next = 0;
        for (int i = 0; i < times.Length - 1; i++)
        {
            while (next < ordered.Length && ordered[next].Time <= times[i])
            {
                current[ordered[next].Layer] = ordered[next].Value;
                next++;
            }

            for (int layer = 0; layer < values.Length; layer++)
            {
                values[layer][i] = current[layer];
            }
        }

        var plot = new StackedStepPlot(title, times, "Time (s)", "Cores");
        for (int layer = 0; layer < values.Length; layer++)
        {
            plot.AddLayer(names[layer], values[layer]);
        }

        return plot;
    }

    /// <summary>
    /// The files of one scheme's timeline: <c>allocation-{scheme}.trace.json</c> (Chrome trace), and beside it
    /// <c>allocation-{scheme}.png</c> and <c>allocation-{scheme}.plot.json</c> when the timeline names a program.
    /// </summary>
    public static IReadOnlyList<(string Name, byte[] Content)> Files(SchemeTimeline timeline, bool png)
    {
        ArgumentNullException.ThrowIfNull(timeline);
        string stem = $"allocation-{CyclicPlots.Slug(timeline.Scheme)}";
        var trace = new StringWriter();
        timeline.Timeline.WriteChromeTrace(trace, timeline.EndTimestamp);
        return [($"{stem}.trace.json", Encoding.UTF8.GetBytes(trace.ToString())), .. png && Create(timeline) is { } plot ? NamedFigure.Files([new(stem, plot)]) : []];
    }
}
