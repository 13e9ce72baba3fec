namespace DivCon.Partitioning;

/// <summary>
/// What a borrower rule (<see cref="IIdleLendingPolicy.ChooseBorrower"/>) may look at when a worker has nothing to
/// do: the decision in force (cores, programs with their scalabilities and tables) and the live counts (workers
/// serving each program, its available tasks), read without a lock between two tasks. A ref struct over the caller's
/// buffers: choosing allocates nothing.
/// </summary>
public readonly ref struct LendingInput
{
    /// <summary>Creates the input.</summary>
    /// <param name="cores">The pool's worker slots (N of the speedup model); positive.</param>
    /// <param name="programs">The programs of the decision in force, in its order (scalability, table).</param>
    /// <param name="servingWorkers">Per program: the workers serving it now (owned plus lent in, minus lent out).</param>
    /// <param name="availableTasks">Per program: its queued tasks now.</param>
    /// <param name="lender">Index of the idle worker's own program, or -1.</param>
    /// <exception cref="ArgumentException">The spans' lengths differ from the programs', or the lender is out of range.</exception>
    public LendingInput(int cores, IReadOnlyList<ProgramLoad> programs, ReadOnlySpan<int> servingWorkers, ReadOnlySpan<int> availableTasks, int lender)
    {
        ArgumentNullException.ThrowIfNull(programs);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(cores);
        if (servingWorkers.Length != programs.Count || availableTasks.Length != programs.Count)
        {
            throw new ArgumentException(
                $"Give one value per program in each span: {programs.Count} programs, {servingWorkers.Length} serving counts, {availableTasks.Length} task counts.");
        }

        if (lender < -1 || lender >= programs.Count)
        {
            throw new ArgumentOutOfRangeException(nameof(lender), lender, $"The lender must be -1 or a program index in 0..{programs.Count - 1}.");
        }

        Cores = cores;
        Programs = programs;
        ServingWorkers = servingWorkers;
        AvailableTasks = availableTasks;
        Lender = lender;
    }

    /// <summary>The pool's worker slots.</summary>
    public int Cores { get; }

    /// <summary>The programs of the decision in force.</summary>
    public IReadOnlyList<ProgramLoad> Programs { get; }

    /// <summary>Per program: the workers serving it now.</summary>
    public ReadOnlySpan<int> ServingWorkers { get; }

    /// <summary>Per program: its queued tasks now.</summary>
    public ReadOnlySpan<int> AvailableTasks { get; }

    /// <summary>Index of the idle worker's own program, or -1.</summary>
    public int Lender { get; }
}
