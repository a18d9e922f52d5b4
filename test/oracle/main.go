// The oracle: Kubernetes' own code judging manifests as the API server would on create.
//
// For each JSON line on stdin, {"manifest": {...}} or, for a custom resource, {"manifest": {...},
// "crd": {...}}, it decodes the manifest strictly into the kind's versioned type, defaults it,
// converts it to the internal type and runs what the API server's create runs before storage
// (rest.BeforeCreate with the kind's registry strategy: PrepareForCreate, the kind's validation,
// the generic object-meta rules). It prints one JSON line per input: the verdict and every field
// error as the API server lists them (field path, cause type, message).
//
// Not run, because no cluster is here: admission plugins, the Service IP and node-port allocators
// (which fill ipFamilies and clusterIP from the cluster's ranges before validation), quota.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsinstall "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/install"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresource"
	crdstrategy "k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured/unstructuredscheme"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	jsonserializer "k8s.io/apimachinery/pkg/runtime/serializer/json"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	apiservice "k8s.io/kubernetes/pkg/api/service"
	"k8s.io/kubernetes/pkg/apis/core"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	_ "k8s.io/kubernetes/pkg/apis/networking/install"
	_ "k8s.io/kubernetes/pkg/apis/storage/install"
	"k8s.io/kubernetes/pkg/registry/core/configmap"
	"k8s.io/kubernetes/pkg/registry/core/endpoint"
	"k8s.io/kubernetes/pkg/registry/core/persistentvolume"
	"k8s.io/kubernetes/pkg/registry/core/persistentvolumeclaim"
	"k8s.io/kubernetes/pkg/registry/core/secret"
	"k8s.io/kubernetes/pkg/registry/core/service"
	"k8s.io/kubernetes/pkg/registry/networking/ingress"
	"k8s.io/kubernetes/pkg/registry/networking/ingressclass"
	"k8s.io/kubernetes/pkg/registry/storage/storageclass"
)

type input struct {
	Manifest json.RawMessage `json:"manifest"`
	CRD      json.RawMessage `json:"crd,omitempty"`
}

type fieldError struct {
	Field   string `json:"field"`
	Type    string `json:"type"`
	Message string `json:"message"`
}

type verdict struct {
	Verdict string       `json:"verdict"`
	Errors  []fieldError `json:"errors"`
	// Set when the manifest is not even decoded (unknown kind, a field of the wrong type).
	DecodeError string `json:"decodeError,omitempty"`
	// Unknown fields: a warning by the API server's default field validation (Warn), as CONTRACT §5
	// has them; `kubectl --validate=strict` and facetform's strict=true refuse them instead.
	Warnings []string `json:"warnings,omitempty"`
}

// One scheme, codec and create strategy per API group the shipped kinds belong to.
type judge struct {
	scheme   *runtime.Scheme
	strategy rest.RESTCreateStrategy
}

var crdScheme = func() *runtime.Scheme {
	scheme := runtime.NewScheme()
	apiextensionsinstall.Install(scheme)
	return scheme
}()

var judges = map[schema.GroupKind]judge{
	{Group: "", Kind: "Service"}:                                      {legacyscheme.Scheme, service.Strategy},
	{Group: "", Kind: "ConfigMap"}:                                    {legacyscheme.Scheme, configmap.Strategy},
	{Group: "", Kind: "Secret"}:                                       {legacyscheme.Scheme, secret.Strategy},
	{Group: "", Kind: "Endpoints"}:                                    {legacyscheme.Scheme, endpoint.Strategy},
	{Group: "", Kind: "PersistentVolumeClaim"}:                        {legacyscheme.Scheme, persistentvolumeclaim.Strategy},
	{Group: "", Kind: "PersistentVolume"}:                             {legacyscheme.Scheme, persistentvolume.Strategy},
	{Group: "networking.k8s.io", Kind: "Ingress"}:                     {legacyscheme.Scheme, ingress.Strategy},
	{Group: "networking.k8s.io", Kind: "IngressClass"}:                {legacyscheme.Scheme, ingressclass.Strategy},
	{Group: "storage.k8s.io", Kind: "StorageClass"}:                   {legacyscheme.Scheme, storageclass.Strategy},
	{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"}: {crdScheme, crdstrategy.NewStrategy(crdScheme)},
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64<<20), 64<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	encoder := json.NewEncoder(out)
	for in.Scan() {
		if len(in.Bytes()) == 0 {
			continue
		}
		var line input
		var result verdict
		if err := json.Unmarshal(in.Bytes(), &line); err != nil {
			result = verdict{Verdict: "refuse", DecodeError: "not an oracle input line: " + err.Error()}
		} else if len(line.CRD) > 0 {
			result = judgeCustomResource(line.Manifest, line.CRD)
		} else {
			result = judgeBuiltIn(line.Manifest)
		}
		if result.Errors == nil {
			result.Errors = []fieldError{}
		}
		if err := encoder.Encode(result); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func judgeBuiltIn(manifest []byte) verdict {
	var typeMeta metav1.TypeMeta
	if err := json.Unmarshal(manifest, &typeMeta); err != nil {
		return verdict{Verdict: "refuse", DecodeError: err.Error()}
	}
	gvk := typeMeta.GroupVersionKind()
	j, known := judges[gvk.GroupKind()]
	if !known {
		return verdict{Verdict: "refuse", DecodeError: fmt.Sprintf("the oracle does not judge %s", gvk)}
	}
	// Strict decoding names the unknown fields; the API server's default (Warn) keeps going without them.
	decoder := jsonserializer.NewSerializerWithOptions(jsonserializer.DefaultMetaFactory, j.scheme, j.scheme, jsonserializer.SerializerOptions{Strict: true})
	versioned, _, err := decoder.Decode(manifest, nil, nil)
	var warnings []string
	if strict, ok := runtime.AsStrictDecodingError(err); ok && versioned != nil {
		for _, unknown := range strict.Errors() {
			warnings = append(warnings, unknown.Error())
		}
	} else if err != nil {
		return verdict{Verdict: "refuse", DecodeError: err.Error()}
	}
	j.scheme.Default(versioned)
	internal, err := j.scheme.New(schema.GroupVersionKind{Group: gvk.Group, Version: runtime.APIVersionInternal, Kind: gvk.Kind})
	if err != nil {
		return verdict{Verdict: "refuse", DecodeError: err.Error()}
	}
	if err := j.scheme.Convert(versioned, internal, nil); err != nil {
		return verdict{Verdict: "refuse", DecodeError: err.Error()}
	}
	if svc, ok := internal.(*core.Service); ok {
		allocate(svc)
	}
	result := create(j.strategy, internal)
	result.Warnings = warnings
	return result
}

// allocate does what the Service REST storage does before validation whatever the cluster:
// clusterIPs follows clusterIP, and a health-check node port is allocated where one is needed.
// What depends on the cluster's ranges and families (which IPs and node ports are free, whether
// it is dual-stack) is not judged here, nor by facetform.
func allocate(svc *core.Service) {
	if len(svc.Spec.ClusterIP) > 0 && len(svc.Spec.ClusterIPs) == 0 {
		svc.Spec.ClusterIPs = []string{svc.Spec.ClusterIP}
	}
	if apiservice.NeedsHealthCheck(svc) && svc.Spec.HealthCheckNodePort == 0 {
		svc.Spec.HealthCheckNodePort = 30000
	}
}

// create runs what the generic registry's Create runs before storage: system fields, a name made
// from generateName, the request's namespace (kubectl sends the object's own, else "default"),
// then rest.BeforeCreate.
func create(strategy rest.RESTCreateStrategy, obj runtime.Object) verdict {
	accessor, err := meta.Accessor(obj)
	if err != nil {
		return verdict{Verdict: "refuse", DecodeError: err.Error()}
	}
	rest.FillObjectMetaSystemFields(accessor)
	if accessor.GetName() == "" && accessor.GetGenerateName() != "" {
		accessor.SetName(generatedName(accessor.GetGenerateName()))
	}
	namespace := ""
	if strategy.NamespaceScoped() {
		namespace = accessor.GetNamespace()
		if namespace == "" {
			namespace = metav1.NamespaceDefault
		}
	}
	ctx := genericapirequest.WithNamespace(context.Background(), namespace)
	return verdictOf(rest.BeforeCreate(strategy, ctx, obj))
}

// generatedName is names.SimpleNameGenerator's name with a fixed suffix, so a verdict is repeatable.
func generatedName(base string) string {
	const maxNameLength, randomLength = 63, 5
	if len(base) > maxNameLength-randomLength {
		base = base[:maxNameLength-randomLength]
	}
	return base + "b2x4z"
}

func verdictOf(err error) verdict {
	if err == nil {
		return verdict{Verdict: "accept"}
	}
	status, ok := err.(apierrors.APIStatus)
	if !ok || status.Status().Details == nil {
		return verdict{Verdict: "refuse", Errors: []fieldError{{Type: "Error", Message: err.Error()}}}
	}
	var errors []fieldError
	for _, cause := range status.Status().Details.Causes {
		errors = append(errors, fieldError{Field: cause.Field, Type: string(cause.Type), Message: cause.Message})
	}
	if len(errors) == 0 {
		errors = []fieldError{{Type: "Error", Message: err.Error()}}
	}
	return verdict{Verdict: "refuse", Errors: errors}
}

// judgeCustomResource builds what the API server builds from a CRD for one served version (the
// structural schema, its defaults, the schema validator, the CEL validator with the runtime cost
// budget) and creates the resource with the custom resource strategy.
func judgeCustomResource(manifest, crdJSON []byte) verdict {
	decoder := jsonserializer.NewSerializerWithOptions(jsonserializer.DefaultMetaFactory, crdScheme, crdScheme, jsonserializer.SerializerOptions{})
	versioned, _, err := decoder.Decode(crdJSON, nil, nil)
	if err != nil {
		return verdict{Verdict: "refuse", DecodeError: "the CRD: " + err.Error()}
	}
	crdScheme.Default(versioned)
	crd := &apiextensions.CustomResourceDefinition{}
	if err := crdScheme.Convert(versioned, crd, nil); err != nil {
		return verdict{Verdict: "refuse", DecodeError: "the CRD: " + err.Error()}
	}
	object := &unstructured.Unstructured{}
	if err := object.UnmarshalJSON(manifest); err != nil {
		return verdict{Verdict: "refuse", DecodeError: err.Error()}
	}
	gvk := object.GroupVersionKind()
	if gvk.Group != crd.Spec.Group || gvk.Kind != crd.Spec.Names.Kind {
		return verdict{Verdict: "refuse", DecodeError: fmt.Sprintf("%s is not a kind of the CRD %s", gvk, crd.Name)}
	}
	var served *apiextensions.CustomResourceDefinitionVersion
	for i := range crd.Spec.Versions {
		if crd.Spec.Versions[i].Name == gvk.Version && crd.Spec.Versions[i].Served {
			served = &crd.Spec.Versions[i]
		}
	}
	if served == nil {
		return verdict{Verdict: "refuse", DecodeError: fmt.Sprintf("the CRD %s serves no version %s", crd.Name, gvk.Version)}
	}
	validation, err := apiextensions.GetSchemaForVersion(crd, served.Name)
	if err != nil || validation == nil || validation.OpenAPIV3Schema == nil {
		return verdict{Verdict: "refuse", DecodeError: fmt.Sprintf("the CRD %s has no schema for %s", crd.Name, served.Name)}
	}
	structural, err := structuralschema.NewStructural(validation.OpenAPIV3Schema)
	if err != nil {
		return verdict{Verdict: "refuse", DecodeError: "the CRD's schema is not structural: " + err.Error()}
	}
	schemaValidator, _, err := apiservervalidation.NewSchemaValidator(validation.OpenAPIV3Schema)
	if err != nil {
		return verdict{Verdict: "refuse", DecodeError: "the CRD's schema: " + err.Error()}
	}
	// A member the schema prunes is an unknown field: a warning by default, and gone.
	unknown := structuralpruning.PruneWithOptions(object.Object, structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})
	// As the CR handler's decoder: a null the schema does not make nullable is dropped, then
	// metadata is coerced to ObjectMeta (a member of the wrong type there is a bad request).
	structuraldefaulting.PruneNonNullableNullsWithoutDefaults(object.Object, structural)
	if err, paths := schemaobjectmeta.CoerceWithOptions(nil, object.Object, structural, false, schemaobjectmeta.CoerceOptions{ReturnUnknownFieldPaths: true}); err != nil {
		return verdict{Verdict: "refuse", DecodeError: err.Error()}
	} else {
		unknown = append(unknown, paths...)
	}
	structuraldefaulting.Default(object.Object, structural)
	subresources, _ := apiextensions.GetSubresourcesForVersion(crd, served.Name)
	var status *apiextensions.CustomResourceSubresourceStatus
	var scale *apiextensions.CustomResourceSubresourceScale
	if subresources != nil {
		status, scale = subresources.Status, subresources.Scale
	}
	strategy := customresource.NewStrategy(
		unstructuredscheme.NewUnstructuredObjectTyper(),
		crd.Spec.Scope == apiextensions.NamespaceScoped,
		gvk,
		schemaValidator,
		nil,
		structural,
		status,
		scale,
		nil,
	)
	result := create(strategy, object)
	for _, path := range unknown {
		result.Warnings = append(result.Warnings, fmt.Sprintf("unknown field %q", path))
	}
	return result
}
