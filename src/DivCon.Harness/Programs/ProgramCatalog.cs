using DivCon.Samples;

namespace DivCon.Harness.Programs;

/// <summary>
/// The programs the harness can name, in report order: the five sample programs of the thesis (from
/// <see cref="SampleCatalog"/>) and two synthetic spin programs. An entry can also be listed as unavailable, with the
/// reason (a program whose project is not in the build), and is then never selectable.
/// </summary>
public sealed class ProgramCatalog
{
    /// <summary>The thesis's low/moderate-scalability workload (§7.5.2): the default of <c>divcon cyclic</c>.</summary>
    public static readonly IReadOnlyList<string> DefaultCyclicWorkload = ["strassen", "quicksort", "mergesort"];

    /// <summary>The five-program suite (§7.5.1).</summary>
    public static readonly IReadOnlyList<string> FullSuite = ["sumofsquares", "montecarlopi", "strassen", "quicksort", "mergesort"];

    private readonly ProgramEntry[] _entries;

    /// <summary>Creates a catalogue; names must be unique (case-insensitive).</summary>
    public ProgramCatalog(IEnumerable<ProgramEntry> entries)
    {
        ArgumentNullException.ThrowIfNull(entries);
        _entries = entries.ToArray();
        var duplicate = _entries.GroupBy(e => e.Name, StringComparer.OrdinalIgnoreCase).FirstOrDefault(g => g.Count() > 1);
        if (duplicate is not null)
        {
            throw new ArgumentException($"Program name '{duplicate.Key}' appears twice.", nameof(entries));
        }
    }

    /// <summary>Every program, available or not.</summary>
    public IReadOnlyList<ProgramEntry> All => _entries;

    /// <summary>The programs this build can make.</summary>
    public IReadOnlyList<ProgramEntry> Available => _entries.Where(e => e.IsAvailable).ToArray();

    /// <summary>Looks a program up by name (case-insensitive).</summary>
    public ProgramEntry? Find(string name) => _entries.FirstOrDefault(e => string.Equals(e.Name, name, StringComparison.OrdinalIgnoreCase));

    /// <summary>A catalogue with <paramref name="entry"/> replacing the one of the same name (kept in place) or appended.</summary>
    public ProgramCatalog With(ProgramEntry entry)
    {
        ArgumentNullException.ThrowIfNull(entry);
        var list = _entries.ToList();
        int i = list.FindIndex(e => string.Equals(e.Name, entry.Name, StringComparison.OrdinalIgnoreCase));
        if (i >= 0)
        {
            list[i] = entry;
        }
        else
        {
            list.Add(entry);
        }

        return new ProgramCatalog(list);
    }

    /// <summary>Total chain steps of the synthetic programs per size: about 0.05 s, 1.5 s and 15 s of one core here.</summary>
    public static long SpinIterations(ProblemSize size) => size switch
    {
        ProblemSize.Small => 25_000_000,
        ProblemSize.Medium => 750_000_000,
        ProblemSize.Thesis => 7_500_000_000,
        _ => throw new ArgumentOutOfRangeException(nameof(size), size, "Unknown problem size."),
    };

    /// <summary>The catalogue of this build: the five samples of <see cref="SampleCatalog"/> and the synthetic programs.</summary>
    public static ProgramCatalog CreateDefault()
    {
        return new ProgramCatalog(
        [
            Sample("sumofsquares", "Sum of squares (map-reduce), high scalability (§4.4.1)."),
            Sample("montecarlopi", "Monte Carlo π, high scalability (§4.4.2)."),
            Sample("strassen", "Strassen matrix multiplication, moderate scalability (§4.4.3)."),
            Sample("quicksort", "Quicksort, median-of-first-100 pivot, low scalability (§4.4.4)."),
            Sample("mergesort", "Mergesort, low scalability (§4.4.5)."),
            ProgramEntry.Available("spin", "Synthetic: fixed integer work in 32 equal tasks (no D&C, no memory traffic), near-linear scalability.",
                (size, seed) => new SyntheticSpinProgram("spin", size, SpinIterations(size), 32, 0, seed)),
            ProgramEntry.Available("spin-serial", "Synthetic: the same work, half of it in one serial task first (scalability ≤ 2 on any machine).",
                (size, seed) => new SyntheticSpinProgram("spin-serial", size, SpinIterations(size), 32, 0.5, seed)),
        ]);

        static ProgramEntry Sample(string name, string description) =>
            ProgramEntry.Available(name, description, (size, seed) => SampleCatalog.Create(name, size, seed));
    }
}
