//! One colour per recompile category, the same in the timeline, the legend
//! and the badges, so a colour means one cause everywhere on the page.

use crate::reasons::Category;

pub const FIRST_COMPILE: &str = "#9aa5b1";

pub fn category(c: Category) -> &'static str {
    match c {
        Category::ShapeLazyBuffer => "#e8590c",
        Category::ShapeInput => "#f59f00",
        Category::Stride => "#d9a400",
        Category::Dtype => "#74b816",
        Category::Device => "#2f9e44",
        Category::RequiresGrad => "#0ca678",
        Category::ClosureHookState => "#d6336c",
        Category::ClosureState => "#ae3ec9",
        Category::GlobalVar => "#7048e8",
        Category::TorchGlobalState => "#4263eb",
        Category::NnModuleAttr => "#1c7ed6",
        Category::ObjectId => "#1098ad",
        Category::TypeChange => "#0b7285",
        Category::ConstantValue => "#5c940d",
        Category::ContainerLen => "#a61e4d",
        Category::DictKeys => "#862e9c",
        Category::HooksChanged => "#c92a2a",
        Category::OptimizerHyperparam => "#b35900",
        Category::OptimizerState => "#8f7d00",
        Category::OptimizerRecreated => "#5f3dc4",
        Category::FunctionIdentity => "#087f5b",
        Category::KvCache => "#364fc7",
        Category::NewAttribute => "#9c36b5",
        Category::CacheLimit => "#212529",
        Category::Other => "#6c757d",
    }
}
