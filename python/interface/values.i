/* Typemaps of the wrapped classes' values (included by coordination.i before the classes). */

/* The classes' documentation types (swig -doxygen writes the headers' comments as docstrings). */
%typemap(doctype) std::string "str"
%typemap(doctype) bool "bool"
%typemap(doctype) std::vector<int> "list[int]"
%typemap(doctype) OpenMM::Context "openmm.Context"
%typemap(doctype) OpenMM::Force "openmm.Force"
%typemap(doctype) std::vector<double> "list[float]"
%typemap(doctype) CoordinationPlugin::PerAtomForce::ReductionType "int"
%typemap(doctype) CoordinationPlugin::CoordinationBiasForce::CenterWeighting "int"
%typemap(doctype) CoordinationPlugin::CoordinationBiasForce::SwitchingFunction "int"
%typemap(doctype) CoordinationPlugin::PairSwitchingForce::Mode "int"
%typemap(doctype) CoordinationPlugin::ContactMapForce::Reduction "int"
%typemap(doctype) CoordinationPlugin::ShellFunctionForce::ShellFunction "int"

/* Values computed into a vector (getCollectiveVariableValues, getCoordinationNumbers, getContactValues) are returned
   as a list of floats, as OpenMM's CustomCVForce.getCollectiveVariableValues returns them. */
%typemap(in, numinputs=0) std::vector<double>& values (std::vector<double> temp) {
    $1 = &temp;
}
%typemap(argout) std::vector<double>& values {
    PyObject* list = PyList_New($1->size());
    for (size_t i = 0; i < $1->size(); i++)
        PyList_SET_ITEM(list, i, PyFloat_FromDouble((*$1)[i]));
    %append_output(list);
}

/* getReductionParameters(index) returns the tuple (type, parameters, name) (a typemap of the three arguments
   together, so that other methods' parameters and name arguments stay inputs). */
%typemap(in, numinputs=0) (CoordinationPlugin::PerAtomForce::ReductionType& type, std::string& parameters,
                           std::string& name)
    (CoordinationPlugin::PerAtomForce::ReductionType temp1, std::string temp2, std::string temp3) {
    $1 = &temp1;
    $2 = &temp2;
    $3 = &temp3;
}
%typemap(argout) (CoordinationPlugin::PerAtomForce::ReductionType& type, std::string& parameters,
                  std::string& name) {
    %append_output(Py_BuildValue("(iNN)", static_cast<int>(*$1),
                                 PyUnicode_FromStringAndSize($2->data(), $2->size()),
                                 PyUnicode_FromStringAndSize($3->data(), $3->size())));
}

/* A contact's shape and a centre's weights: a sequence of floats (_arguments converts numbers and Quantities first).
   OpenMM's own typemap of a const std::vector<double>& needs its module's numpy set-up, which this module lacks. */
%{
static int coordinationSequenceToDoubles(PyObject* input, std::vector<double>& out) {
    PyObject* sequence = PySequence_Fast(input, "expected a sequence of numbers");
    if (sequence == NULL)
        return 0;
    const Py_ssize_t size = PySequence_Fast_GET_SIZE(sequence);
    out.resize(size);
    for (Py_ssize_t i = 0; i < size; i++) {
        out[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(sequence, i));
        if (PyErr_Occurred()) {
            Py_DECREF(sequence);
            return 0;
        }
    }
    Py_DECREF(sequence);
    return 1;
}
/* A list of ints, or of floats. */
static PyObject* coordinationIntList(const std::vector<int>& values) {
    PyObject* list = PyList_New(values.size());
    for (size_t i = 0; i < values.size(); i++)
        PyList_SET_ITEM(list, i, PyLong_FromLong(values[i]));
    return list;
}
static PyObject* coordinationFloatList(const std::vector<double>& values) {
    PyObject* list = PyList_New(values.size());
    for (size_t i = 0; i < values.size(); i++)
        PyList_SET_ITEM(list, i, PyFloat_FromDouble(values[i]));
    return list;
}
%}
%typemap(in) const std::vector<double>& shape (std::vector<double> temp), const std::vector<double>& weights (std::vector<double> temp) {
    if (!coordinationSequenceToDoubles($input, temp))
        SWIG_fail;
    $1 = &temp;
}
%typemap(typecheck, precedence=SWIG_TYPECHECK_DOUBLE_ARRAY) const std::vector<double>& shape, const std::vector<double>& weights {
    $1 = (PySequence_Check($input) && !PyUnicode_Check($input)) ? 1 : 0;
}
