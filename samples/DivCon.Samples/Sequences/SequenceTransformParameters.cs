namespace DivCon.Samples.Sequences;

/// <summary>
/// The shape of a <see cref="SequenceTransform"/>: arrays of <see cref="Length"/> doubles, each pass computing
/// out[i] = f(in[i], in[(i + <see cref="Distance"/>) mod n]), <see cref="Passes"/> passes one after another; the
/// sequence the skeleton processes is the array's blocks of <see cref="BlockLength"/> doubles (the last may be shorter).
/// </summary>
/// <param name="Length">n, the doubles of each array (at least 1).</param>
/// <param name="Distance">D, the reuse distance: double j is read at steps j − D and j (0 ≤ D &lt; n).</param>
/// <param name="Passes">R, passes per run (at least 1).</param>
/// <param name="BlockLength">B, doubles per sequence element (at least 1; default 64, 512 bytes): a skeleton element costs
/// one delegate call, so an element of one double would measure the call, not the memory.</param>
public sealed record SequenceTransformParameters(int Length, int Distance, int Passes, int BlockLength = 64)
{
    /// <summary>The sequence's elements: ⌈n / B⌉ blocks.</summary>
    public int Blocks => BlockLength < 1 ? 0 : (int)((Length + (long)BlockLength - 1) / BlockLength);

    /// <summary>
    /// The parameters per size. Medium and thesis choose D = 3·2^18 (6 MiB of input): one stream in sequential order
    /// keeps about 24·D = 18 MiB live between the two reads of an element (in[i], in[i + D], out[i]), which fits a
    /// 32 MiB last-level cache, while two workers at opposite ends of the array keep twice that, which does not;
    /// small is for tests (milliseconds). Blocks of 64 doubles everywhere.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="size"/> is not defined.</exception>
    public static SequenceTransformParameters For(ProblemSize size) => size switch
    {
        ProblemSize.Small => new SequenceTransformParameters(1 << 20, 1 << 14, 2),
        ProblemSize.Medium => new SequenceTransformParameters(1 << 25, 3 << 18, 8),
        ProblemSize.Thesis => new SequenceTransformParameters(1 << 26, 3 << 18, 16),
        _ => throw new ArgumentOutOfRangeException(nameof(size), size, "Allowed: Small, Medium, Thesis."),
    };

    /// <summary>Every problem with these parameters, one message each; empty when they are valid.</summary>
    public IReadOnlyList<string> Validate()
    {
        var problems = new List<string>();
        if (Length < 1)
        {
            problems.Add($"Length must be at least 1; got {Length}.");
        }

        if (Distance < 0 || (Length >= 1 && Distance >= Length))
        {
            problems.Add($"Distance must be between 0 and Length − 1 ({Length - 1}); got {Distance}.");
        }

        if (Passes < 1)
        {
            problems.Add($"Passes must be at least 1; got {Passes}.");
        }

        if (BlockLength < 1)
        {
            problems.Add($"BlockLength must be at least 1; got {BlockLength}.");
        }

        return problems;
    }
}
