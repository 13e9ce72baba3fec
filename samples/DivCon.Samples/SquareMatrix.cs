using System.Numerics;
using System.Runtime.InteropServices;

namespace DivCon.Samples;

/// <summary>A dense square matrix of doubles, row-major.</summary>
public sealed class SquareMatrix
{
    /// <summary>Creates a zero matrix of order <paramref name="order"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="order"/> is negative or its square exceeds <see cref="Array.MaxLength"/>.</exception>
    public SquareMatrix(int order)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(order);
        ArgumentOutOfRangeException.ThrowIfGreaterThan((long)order * order, Array.MaxLength, nameof(order));
        Order = order;
        Data = new double[order * order];
    }

    /// <summary>The number of rows (and columns).</summary>
    public int Order { get; }

    /// <summary>The elements, row by row: element (i, j) is at i · <see cref="Order"/> + j.</summary>
    public double[] Data { get; }

    /// <summary>Element (<paramref name="row"/>, <paramref name="column"/>).</summary>
    public double this[int row, int column]
    {
        get => Data[(row * Order) + column];
        set => Data[(row * Order) + column] = value;
    }

    /// <summary>A matrix of order <paramref name="order"/> with seeded random integer values in [0, 1024) (§4.4.3).</summary>
    public static SquareMatrix Random(int order, int seed)
    {
        var matrix = new SquareMatrix(order);
        var random = new System.Random(seed);
        double[] data = matrix.Data;
        for (int i = 0; i < data.Length; i++)
        {
            data[i] = random.Next(0, 1024);
        }

        return matrix;
    }

    /// <summary>Whether both matrices have the same order and exactly the same elements.</summary>
    public bool ContentEquals(SquareMatrix other)
    {
        ArgumentNullException.ThrowIfNull(other);
        return Order == other.Order && Data.AsSpan().SequenceEqual(other.Data);
    }

    /// <summary>The standard O(n³) product (row by row, the inner loop vectorised).</summary>
    /// <exception cref="ArgumentException">The orders differ.</exception>
    public static SquareMatrix MultiplyStandard(SquareMatrix a, SquareMatrix b)
    {
        ArgumentNullException.ThrowIfNull(a);
        ArgumentNullException.ThrowIfNull(b);
        if (a.Order != b.Order)
        {
            throw new ArgumentException($"Orders differ: {a.Order} and {b.Order}.", nameof(b));
        }

        int n = a.Order;
        var c = new SquareMatrix(n);
        double[] ad = a.Data;
        double[] bd = b.Data;
        double[] cd = c.Data;
        int vectorWidth = Vector<double>.Count;
        int vectorEnd = n - (n % vectorWidth);
        for (int i = 0; i < n; i++)
        {
            Span<double> rowC = cd.AsSpan(i * n, n);
            Span<Vector<double>> rowCVectors = MemoryMarshal.Cast<double, Vector<double>>(rowC[..vectorEnd]);
            for (int k = 0; k < n; k++)
            {
                double aik = ad[(i * n) + k];
                ReadOnlySpan<double> rowB = bd.AsSpan(k * n, n);
                ReadOnlySpan<Vector<double>> rowBVectors = MemoryMarshal.Cast<double, Vector<double>>(rowB[..vectorEnd]);
                var scale = new Vector<double>(aik);
                for (int v = 0; v < rowCVectors.Length; v++)
                {
                    rowCVectors[v] += scale * rowBVectors[v];
                }

                for (int j = vectorEnd; j < n; j++)
                {
                    rowC[j] += aik * rowB[j];
                }
            }
        }

        return c;
    }

    /// <summary>
    /// result[i] = x[i] + <paramref name="sign"/> · y[i] for every i (vectorised). <paramref name="result"/> may be
    /// <paramref name="x"/> itself (each element is read before it is written); otherwise the spans must not overlap.
    /// </summary>
    internal static void AddRow(ReadOnlySpan<double> x, ReadOnlySpan<double> y, Span<double> result, double sign)
    {
        int i = 0;
        if (Vector.IsHardwareAccelerated)
        {
            var s = new Vector<double>(sign);
            ReadOnlySpan<Vector<double>> xv = MemoryMarshal.Cast<double, Vector<double>>(x);
            ReadOnlySpan<Vector<double>> yv = MemoryMarshal.Cast<double, Vector<double>>(y);
            Span<Vector<double>> rv = MemoryMarshal.Cast<double, Vector<double>>(result);
            for (int v = 0; v < rv.Length; v++)
            {
                rv[v] = xv[v] + (s * yv[v]);
            }

            i = rv.Length * Vector<double>.Count;
        }

        for (; i < result.Length; i++)
        {
            result[i] = x[i] + (sign * y[i]);
        }
    }
}
