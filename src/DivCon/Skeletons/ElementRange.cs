namespace DivCon.Skeletons;

/// <summary>
/// The half-open index range [<see cref="Min"/>, <see cref="Max"/>) of a subproblem over an element array (the thesis's
/// <c>Range</c>, §4.3; renamed so that it does not clash with <see cref="System.Range"/>).
/// </summary>
public readonly record struct ElementRange
{
    /// <summary>Creates the range [<paramref name="min"/>, <paramref name="max"/>); requires 0 ≤ min ≤ max.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="min"/> is negative or greater than <paramref name="max"/>.</exception>
    public ElementRange(int min, int max)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(min);
        ArgumentOutOfRangeException.ThrowIfLessThan(max, min);
        Min = min;
        Max = max;
    }

    /// <summary>The first index in the range.</summary>
    public int Min { get; }

    /// <summary>One past the last index in the range.</summary>
    public int Max { get; }

    /// <summary>The number of elements, <see cref="Max"/> − <see cref="Min"/>.</summary>
    public int Length => Max - Min;

    /// <summary>
    /// Divides the range evenly into min(<paramref name="parts"/>, <see cref="Length"/>) contiguous, non-empty subranges
    /// (sizes differ by at most one), in order; an empty range gives one empty part. For example [0, 100) in 4 parts
    /// gives [0, 25), [25, 50), [50, 75), [75, 100).
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="parts"/> is less than 1.</exception>
    public ElementRange[] Split(int parts)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(parts);
        int length = Length;
        int count = length == 0 ? 1 : Math.Min(parts, length);
        var result = new ElementRange[count];
        int start = Min;
        for (int i = 0; i < count; i++)
        {
            // (long) so that length · (i + 1) cannot overflow for arrays near int.MaxValue.
            int end = Min + (int)((long)length * (i + 1) / count);
            result[i] = new ElementRange(start, end);
            start = end;
        }

        return result;
    }

    /// <inheritdoc/>
    public override string ToString() => $"[{Min}, {Max})";
}
