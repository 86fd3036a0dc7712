// Pull product (mxv; vxm by the transpose): one thread per allowed output row walks its entries
// and the input bitmap, and stops at the monoid's terminal value.
// Defined by the host (backends/gpu/products.py): IPT, IXT (index types), TA, TU (operand
// types), TIN (the multiply's input type), TZ (output type); I_EXPR, J_EXPR, X_EXPR, Y_EXPR (the
// multiply's operands in the user's order); MULT (the multiply's snippet in x, y, i, j, k),
// MONOID (the monoid's snippet in x, y), IS_ANY (true for the any monoid).
extern "C" __global__ void pull(const long long* rows, long long nsel, const IPT* indptr,
        const IXT* indices, const TA* avals, const bool* upresent, const TU* udense,
        bool* zpresent, TZ* zval, TZ term, int has_term) {
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nsel) return;
    long long r = rows[t];
    bool found = false;
    TZ acc = (TZ)0;
    for (long long p = indptr[r]; p < indptr[r + 1]; ++p) {
        long long k = indices[p];
        if (!upresent[k]) continue;
        TZ z;
        {
            long long i = I_EXPR, j = J_EXPR;
            TIN x = (TIN)(X_EXPR), y = (TIN)(Y_EXPR);
            z = (TZ)(MULT);
        }
        if (!found) { acc = z; found = true; }
        else { TZ x = acc, y = z; acc = (TZ)(MONOID); }
        if (IS_ANY || (has_term && acc == term)) break;
    }
    zpresent[t] = found;
    zval[t] = acc;
}
