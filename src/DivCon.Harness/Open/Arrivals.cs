using System.Globalization;
using DivCon.Metrics;

namespace DivCon.Harness.Open;

/// <summary>
/// Arrival sequences of an open workload: seeded Poisson arrivals (exponential gaps at a rate, each job's class drawn
/// from the mix's weights), or a trace read from text. The same seed and repetition give the same sequence, on any
/// machine (<see cref="Random(int)"/> with a seed is deterministic), so every scheme runs the same jobs.
/// </summary>
public static class Arrivals
{
    /// <summary>The seed of repetition <paramref name="repetition"/>'s sequence.</summary>
    public static int SeedOf(int seed, int repetition) => unchecked((seed * 1_000_003) + repetition);

    /// <summary>
    /// Poisson arrivals at <paramref name="rate"/> per second in [0, <paramref name="durationSeconds"/>), each job's
    /// class drawn with probability proportional to its weight in <paramref name="mix"/>.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">A rate or duration that is not positive and finite, or no positive weight.</exception>
    public static IReadOnlyList<Arrival> Poisson(double rate, double durationSeconds, IReadOnlyList<(string Class, double Weight)> mix, int seed)
    {
        ArgumentNullException.ThrowIfNull(mix);
        if (!(rate > 0 && double.IsFinite(rate)))
        {
            throw new ArgumentOutOfRangeException(nameof(rate), rate, "The arrival rate must be positive and finite.");
        }

        if (!(durationSeconds > 0 && double.IsFinite(durationSeconds)))
        {
            throw new ArgumentOutOfRangeException(nameof(durationSeconds), durationSeconds, "The duration must be positive and finite.");
        }

        (string Class, double Weight)[] positive = [.. mix.Where(m => m.Weight > 0)];
        double total = positive.Sum(m => m.Weight);
        if (!(total > 0 && double.IsFinite(total)))
        {
            throw new ArgumentOutOfRangeException(nameof(mix), "The mix needs at least one class with a positive, finite weight.");
        }

        var random = new Random(seed);
        var arrivals = new List<Arrival>();
        double t = 0;
        while (true)
        {
            // Exponential gap: -ln(U) / rate with U in (0, 1].
            t += -Math.Log(1 - random.NextDouble()) / rate;
            if (t >= durationSeconds)
            {
                return arrivals;
            }

            // The class whose share of [0, total) holds the draw (the last one for a draw rounded up to total).
            double pick = random.NextDouble() * total;
            int k = 0;
            while (k < positive.Length - 1 && pick >= positive[k].Weight)
            {
                pick -= positive[k++].Weight;
            }

            arrivals.Add(new Arrival(t, positive[k].Class));
        }
    }

    /// <summary>
    /// Reads a trace: one job per line, <c>seconds class</c> (whitespace or a comma between them), in any order (sorted
    /// here); blank lines and lines starting with <c>#</c> are skipped. Every bad line is one entry in
    /// <paramref name="problems"/> (at most <paramref name="maxProblems"/>, then one line saying how many more).
    /// </summary>
    public static IReadOnlyList<Arrival> ParseTrace(IEnumerable<string> lines, IReadOnlyCollection<string> classes, List<string> problems, string source = "trace", int maxProblems = 10)
    {
        ArgumentNullException.ThrowIfNull(lines);
        ArgumentNullException.ThrowIfNull(classes);
        ArgumentNullException.ThrowIfNull(problems);
        var arrivals = new List<Arrival>();
        int bad = 0;
        int number = 0;
        foreach (string raw in lines)
        {
            number++;
            string line = raw.Trim();
            if (line.Length == 0 || line.StartsWith('#'))
            {
                continue;
            }

            string[] fields = line.Split([' ', '\t', ','], StringSplitOptions.RemoveEmptyEntries);
            string? problem = null;
            if (fields.Length != 2)
            {
                problem = $"expected 'seconds class', got '{line}'";
            }
            else if (!double.TryParse(fields[0], NumberStyles.Float, CultureInfo.InvariantCulture, out double at) || !(at >= 0) || !double.IsFinite(at))
            {
                problem = $"'{fields[0]}' is not a non-negative number of seconds";
            }
            else if (classes.FirstOrDefault(c => string.Equals(c, fields[1], StringComparison.OrdinalIgnoreCase)) is not { } known)
            {
                problem = $"unknown job class '{fields[1]}' (known: {string.Join(", ", classes)})";
            }
            else
            {
                arrivals.Add(new Arrival(at, known));
            }

            problems.AddIf(problem is not null && bad++ < maxProblems, $"{source} line {number}: {problem}.");
        }

        problems.AddIf(bad > maxProblems, $"{source}: {bad - maxProblems} more bad lines.");
        problems.AddIf(bad == 0 && arrivals.Count == 0, $"{source}: no jobs (a line per job: 'seconds class').");

        return [.. arrivals.OrderBy(a => a.AtSeconds)];
    }
}
