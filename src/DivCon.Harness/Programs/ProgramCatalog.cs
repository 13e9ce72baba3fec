using DivCon.Metrics;

namespace DivCon.Harness.Programs;

/// <summary>
/// The programs a command can name, in listing order. The harness itself holds only the synthetic programs
/// (<see cref="Synthetic"/>); the front ends register the sample programs. <see cref="Resolve"/> is the one check of a
/// program list every command makes.
/// </summary>
/// <param name="entries">The programs; names must be unique (case-insensitive).</param>
public sealed class ProgramCatalog(IEnumerable<ProgramEntry> entries) : NamedList<ProgramEntry>(entries, e => e.Name, "Program", nameof(entries))
{
    /// <summary>The thesis's low/moderate-scalability workload (§7.5.2): the default of <c>divcon cyclic</c>.</summary>
    public static readonly IReadOnlyList<string> DefaultCyclicWorkload = ["strassen", "quicksort", "mergesort"];

    /// <summary>The five-program suite (§7.5.1).</summary>
    public static readonly IReadOnlyList<string> FullSuite = ["sumofsquares", "montecarlopi", "strassen", "quicksort", "mergesort"];

    /// <summary>The two synthetic spin programs (no D&amp;C, no memory traffic), which the harness makes itself.</summary>
    public static IReadOnlyList<ProgramEntry> Synthetic { get; } =
    [
        new("spin", "Synthetic: fixed integer work in 32 equal tasks (no D&C, no memory traffic), near-linear scalability.",
            (size, seed) => new SyntheticSpinProgram("spin", SyntheticSpinProgram.Iterations(size), 32, 0, seed)),
        new("spin-serial", "Synthetic: the same work, half of it in one serial task first (scalability ≤ 2 on any machine).",
            (size, seed) => new SyntheticSpinProgram("spin-serial", SyntheticSpinProgram.Iterations(size), 32, 0.5, seed)),
    ];

    /// <summary>The names, comma-separated, for help text and error messages.</summary>
    public string Names => string.Join(", ", All.Select(e => e.Name));

    /// <summary>A catalogue with <paramref name="entry"/> replacing the one of the same name (kept in place) or appended.</summary>
    public new ProgramCatalog With(ProgramEntry entry)
    {
        ArgumentNullException.ThrowIfNull(entry);
        return new ProgramCatalog(base.With(entry));
    }

    /// <summary>
    /// The entries of <paramref name="names"/>, in order, adding one problem line for each that is missing, unknown or
    /// (unless <paramref name="minimum"/> allows less) too few, and for each name listed twice.
    /// </summary>
    /// <param name="names">The names as given (case-insensitive).</param>
    /// <param name="problems">Where the problems go.</param>
    /// <param name="option">The option's name, for the messages.</param>
    /// <param name="minimum">How many programs are needed at least.</param>
    /// <param name="duplicateHint">Added to the message about a name listed twice.</param>
    public IReadOnlyList<ProgramEntry> Resolve(IReadOnlyList<string> names, List<string> problems, string option = "--programs", int minimum = 1, string? duplicateHint = null)
    {
        ArgumentNullException.ThrowIfNull(names);
        ArgumentNullException.ThrowIfNull(problems);
        problems.AddIf(names.Count < minimum, $"{option} needs at least {minimum} program{(minimum == 1 ? string.Empty : "s")}; valid programs: {Names}.");

        foreach (var dup in names.GroupBy(n => n, StringComparer.OrdinalIgnoreCase).Where(g => g.Count() > 1))
        {
            problems.Add($"program '{dup.Key}' is listed more than once{duplicateHint}.");
        }

        var entries = new List<ProgramEntry>();
        foreach (string name in names.Distinct(StringComparer.OrdinalIgnoreCase))
        {
            if (Find(name) is { } entry)
            {
                entries.Add(entry);
            }
            else
            {
                problems.Add($"unknown program '{name}'; valid programs: {Names}.");
            }
        }

        return entries;
    }
}
