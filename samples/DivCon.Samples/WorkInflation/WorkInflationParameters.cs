namespace DivCon.Samples.WorkInflation;

/// <summary>
/// The parameters of the work-inflation microbenchmark (seed 000 §4): an array of <see cref="ArraySize"/> 64-bit
/// cells, each visit does <see cref="Load"/> additions on the cell's value and writes it back, the i-th visit of a
/// pass goes to cell (i·G + ⌊i·G/M⌋) mod M with G = <see cref="Gap"/>, and the whole pass is repeated
/// <see cref="Repeats"/> times.
/// </summary>
/// <param name="ArraySize">M: cells in the array (at least 1).</param>
/// <param name="Load">L: additions per visit (at least 1).</param>
/// <param name="Gap">G: distance between consecutive visits (at least 1, and M must be a multiple of G so that a pass visits every cell exactly once).</param>
/// <param name="Repeats">R: passes over the array (at least 1).</param>
public sealed record WorkInflationParameters(int ArraySize, int Load, int Gap, int Repeats)
{
    /// <summary>
    /// The parameters per size, G = 32 and L = 1 as in seed 000 Figure 5 (R·M kept near a fixed operation count):
    /// small M = 2^16 (512 KB, cache-resident), R = 16; medium M = 2^23 (64 MB, beyond the last-level cache), R = 4;
    /// thesis M = 2^26 (512 MB), R = 2.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="size"/> is not defined.</exception>
    public static WorkInflationParameters For(ProblemSize size) =>
        SampleRun.BySize<WorkInflationParameters>(size, new(1 << 16, 1, 32, 16), new(1 << 23, 1, 32, 4), new(1 << 26, 1, 32, 2));

    /// <summary>Every problem with these parameters, one message each; empty when they are valid.</summary>
    public IReadOnlyList<string> Validate()
    {
        var problems = new List<string>();
        if (ArraySize < 1)
        {
            problems.Add($"M (array size) must be at least 1; got {ArraySize}.");
        }

        if (Load < 1)
        {
            problems.Add($"L (load) must be at least 1; got {Load}.");
        }

        if (Gap < 1)
        {
            problems.Add($"G (gap) must be at least 1; got {Gap}.");
        }
        else if (ArraySize >= 1 && ArraySize % Gap != 0)
        {
            problems.Add($"M ({ArraySize}) must be a multiple of G ({Gap}) so that each pass visits every cell exactly once.");
        }

        if (Repeats < 1)
        {
            problems.Add($"R (repeats) must be at least 1; got {Repeats}.");
        }

        return problems;
    }
}
